"""meshvk.devices()/device_groups() vs mesh-vk-run --list-devices; Program's plan, kernels, save."""
import os
import re
import subprocess
import sys

import numpy as np
import pytest

import meshvk
from conftest import SAMPLES, compiled, uniform

MESH_VK_RUN = os.environ.get("MESHVK_RUN")


@pytest.mark.skipif(not MESH_VK_RUN, reason="MESHVK_RUN (the mesh-vk-run binary) not set")
def test_devices_match_list_devices():
    text = subprocess.run([MESH_VK_RUN, "--list-devices"], check=True, capture_output=True, text=True).stdout
    devices, groups = meshvk.devices(), meshvk.device_groups()
    assert int(re.search(r"physical devices: (\d+)", text).group(1)) == len(devices)
    for d in devices:
        line = re.search(r"\[%d\] (.*) \((\S+), vendor 0x(\w+) device 0x(\w+), Vulkan ([\d.]+)\)" % d["index"], text)
        assert line.groups() == (d["name"], d["type"], "%04x" % d["vendor_id"], "%04x" % d["device_id"],
                                 d["api_version"])
        assert ("float16 %s" % ("yes" if d["float16"] else "no")) in text
        assert "invocations <= %d" % d["limits"]["max_workgroup_invocations"] in text
    assert int(re.search(r"device groups: (\d+)", text).group(1)) == len(groups)
    for g in groups:
        assert "group %d: %d device(s)," % (g["index"], len(g["physical_devices"])) in text
        for in_group, physical in enumerate(g["physical_devices"]):
            assert "index %d in group: [%d] " % (in_group, physical) in text
        for heap in g["peer_memory"]:
            for local, row in enumerate(heap):
                assert re.search(r"\n\s+%d %s\n" % (local, " ".join(row)), text)


def test_runtime_devices_are_the_module_devices(make_runtime):
    rt = make_runtime()
    assert rt.devices() == meshvk.devices()
    # devices=None: no device set before the first load; the topology asked for is kept apart.
    assert rt.process_count is None and rt.topology is None and rt.requested_topology == "auto"


def test_program_facts():
    prog = compiled("mlp_megatron")
    assert prog.grid_shape == (4,) and prog.process_count == 4 and prog.functions == ["main"]
    assert prog.peered_axes == [0]
    sig = prog.signature()
    assert [a["shape"] for a in sig["arguments"]] == [(32, 64), (64, 256), (256, 64)]
    assert sig["arguments"][1]["split_axes"] == [[], [0]] and sig["arguments"][2]["split_axes"] == [[0], []]
    assert sig["results"][0]["shard_count"] == 4
    assert "shard.grid" in prog.source


def test_kernels_are_spirv_with_disassembly():
    kernels = compiled("mlp_megatron").kernels
    # e2e.cli.dump_kernels: the two fill+matmuls share one kernel, the relu, and the all_reduce's sum.
    assert len(kernels) == 3
    for k in kernels:
        words = np.frombuffer(k["spirv"], dtype=np.uint32)
        assert words[0] == 0x07230203  # SPIR-V magic
        assert "OpEntryPoint GLCompute" in k["disassembly"]
        assert k["entry_point"] in k["disassembly"]
        assert len(k["workgroup_size"]) == 3 and k["bindings"] == len(k["writable_bindings"]) > 0
        # The plan graph's and the trace's name: the entry point, or kernel_<index> for "main".
        assert k["name"] == (k["entry_point"] if k["entry_point"] != "main" else "kernel_%d" % k["index"])
    dot = compiled("mlp_megatron").plan_graph()
    assert all(k["name"] in dot for k in kernels)


def test_measured_memory_equals_the_plan(make_runtime):
    prog = compiled("mlp_megatron")
    loaded = make_runtime(devices=4).load(prog)
    plan = prog.plan
    for placed, planned in zip(loaded.placement(), plan["processes"]):
        assert placed["allocated_bytes"] == planned["allocated_bytes"] == 81920


def test_save_and_load_round_trip(make_runtime, tmp_path, rng):
    prog = compiled("seed_matmul")
    path = tmp_path / "seed.mvk"
    prog.save(path)
    assert path.read_bytes() == prog.to_bytes()
    assert not list(tmp_path.glob("*.tmp"))
    loaded = meshvk.Program.load(path)
    assert loaded.source is None and loaded.plan["collectives"] is None
    assert loaded.plan["processes"] == prog.plan["processes"]
    a, b = uniform(rng, (2, 3)), uniform(rng, (3, 2))
    rt = make_runtime(devices=2)
    np.testing.assert_allclose(rt.load(loaded)["main"](a, b), a @ b, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(rt.load(str(SAMPLES / "seed_matmul.mlir"))["main"](a, b), a @ b, rtol=1e-5, atol=1e-6)
    with pytest.raises(meshvk.UnavailableError, match="cannot write"):
        prog.save(tmp_path / "no" / "such" / "dir.mvk")


def test_devices_list_runs_on_those_devices(make_runtime, rng):
    rt = make_runtime(devices=[0, 0])  # two processes on physical device 0
    loaded = rt.load(compiled("seed_matmul"))
    assert [p["physical_device"] for p in loaded.placement()] == [0, 0]
    a, b = uniform(rng, (2, 3)), uniform(rng, (3, 2))
    np.testing.assert_allclose(loaded["main"](a, b), a @ b, rtol=1e-5, atol=1e-6)
    group = make_runtime(devices=[0, 0], group=0)  # device indices inside group 0
    assert group.topology == "group"
    np.testing.assert_allclose(group.load(compiled("seed_matmul"))["main"](a, b), a @ b, rtol=1e-5, atol=1e-6)


def test_benchmark_has_the_cli_numbers(make_runtime, rng):
    prog = compiled("mlp_megatron")
    main = make_runtime(devices=4).load(prog)["main"]
    stats = main.benchmark(*[uniform(rng, s) for s in [(32, 64), (64, 256), (256, 64)]], iterations=5)
    assert stats["unit"] == "s" and stats["runs"] == 5 and set(stats["wall"]) == {"min", "median", "max"}
    assert 0 < stats["wall"]["median"] < 10 and 0 < stats["record"] < 10  # seconds, not ms
    assert stats["roofline"] is None  # the runner's probe shaders are not in the package
    for p in stats["phases"]:
        assert p["gpu"]["min"] <= p["gpu"]["median"] <= p["gpu"]["max"]
    # Per dispatch, named as prog.kernels, the plan graph and the trace name them.
    names = {k["name"] for k in prog.kernels}
    assert stats["dispatches"] and {d["kernel"] for d in stats["dispatches"]} <= names
    assert {d["process"] for d in stats["dispatches"]} == {0, 1, 2, 3}
    for d in stats["dispatches"]:
        assert d["bytes"] > 0 and d["gpu"]["min"] <= d["gpu"]["median"] <= d["gpu"]["max"] < 10
    # The all_reduce pulls 24,576 bytes into each process (the plan's peer_bytes_in).
    into = {}
    for c in stats["copies"]:
        assert c["from_process"] != c["process"] and c["leg"] in ("device", "host") and c["path"]
        if c["leg"] == "device":
            into[c["process"]] = into.get(c["process"], 0) + c["bytes"]
    assert into == {p: 24576 for p in range(4)}


LAVAPIPE_ICD = "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json"

TWO_DEVICES_SCRIPT = r'''
import sys
import numpy as np, meshvk
from conftest import SAMPLES, elementwise_add
assert len(meshvk.devices()) == 2 and len(meshvk.device_groups()) == 2, meshvk.devices()
a = np.arange(64, dtype=np.float32).reshape(8, 8); b = np.ones((8, 8), np.float32)
with meshvk.Runtime(devices=[0, 1], validation="sync") as rt:
    loaded = rt.load(meshvk.compile(elementwise_add("f32", (8, 8), (2,), ([0],))))
    assert [p["physical_device"] for p in loaded.placement()] == [0, 1]
    np.testing.assert_array_equal(loaded["main"](a, b), a + b)
    assert rt.topology == "independent" and rt.requested_topology == "auto"  # what "auto" chose
    # Results kept on two VkDevices and passed back (the async invoke's worker thread).
    t = loaded["main"](a, b, keep_on_device=True)
    for _ in range(3):
        t = loaded["main"](t, b, keep_on_device=True)
    np.testing.assert_array_equal(t.numpy(), a + 4 * b)
    np.testing.assert_array_equal(loaded["main"](t, a), a + 4 * b + a)
    # seed_matmul all-gathers its row-split result: copies between the two VkDevices.
    seed = rt.load(meshvk.compile(str(SAMPLES / "seed_matmul.mlir")))
    assert [p["physical_device"] for p in seed.placement()] == [0, 1]
    x, y = a[:2, :3].copy(), b[:3, :2].copy()
    np.testing.assert_allclose(seed["main"](x, y), x @ y, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(seed["main"](x, y, keep_on_device=True).numpy(), x @ y, rtol=1e-5, atol=1e-6)
    assert rt.validation_messages == [], rt.validation_messages
print("two physical devices: ok")
'''


@pytest.mark.skipif(not os.path.exists(LAVAPIPE_ICD), reason="no lavapipe ICD manifest to register twice")
def test_two_physical_devices(tmp_path):
    """lavapipe's ICD listed twice = two physical devices (FACTS.md): devices=[0, 1] puts one
    process on each (independent VkDevices); a program without cross-device copies and one
    whose all-gather copies between the two VkDevices both match numpy."""
    files = []
    for name in ("a.json", "b.json"):
        (tmp_path / name).write_text(open(LAVAPIPE_ICD).read())
        files.append(str(tmp_path / name))
    env = dict(os.environ, VK_DRIVER_FILES=":".join(files))
    env["PYTHONPATH"] = os.pathsep.join([os.path.dirname(__file__), env.get("PYTHONPATH", "")])
    run = subprocess.run([sys.executable, "-c", TWO_DEVICES_SCRIPT], env=env, capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "two physical devices: ok" in run.stdout


def test_plan_graph_is_the_cli_picture(make_runtime, tmp_path):
    prog = compiled("mlp_megatron")
    dot = prog.plan_graph()
    assert dot.startswith("digraph") and dot.rstrip().endswith("}")
    # One edge per planned copy (3 pulls per process for the all_reduce on 4).
    assert dot.count('class="copy"') == prog.plan["total"]["copies"] == 12
    for p in range(4):
        assert "cluster_p%d" % p in dot
    tool = os.environ.get("MESHVK_COMPILE")
    if tool:  # the same writer as mesh-vk-compile --plan-graph, for the same program
        graph = tmp_path / "mlp.dot"
        subprocess.run([tool, str(SAMPLES / "mlp_megatron.mlir"), "-o", str(tmp_path / "mlp.mvk"),
                        "--plan-graph=%s" % graph], check=True, capture_output=True)
        assert graph.read_text() == dot
    on_devices = make_runtime(devices=4).load(prog).plan_graph()
    assert on_devices.count('class="copy"') == 12
    with pytest.raises(meshvk.OutOfRangeError):
        prog.plan_graph("nope")
