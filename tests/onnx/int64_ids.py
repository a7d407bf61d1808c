#!/usr/bin/env python3
"""int64 token ids and bool masks at the boundary: the same .npy / numpy arrays as torch takes.

    int64_ids.py MESH_VK_RUN MESH_VK_COMPILE WORK_DIR

The GPT-2-style decoder of samples/models/zoo.py takes int64 ids; the program
computes them as i32 (the runtime's buffers are f32, f16 and i32), so
mesh-vk-run and the Python package accept int64 data for an i32 argument and
narrow it with a range check. Checked here against torch's output (never
meshvk's own):

  * mesh-vk-run with an int64 .npy, a stored and a deflated .npz member, and
    a `4x16xi32=@ids.npy` spec, on 1 process and on 4 under --shard=tensor;
  * out-of-range ids (2^31, -2^31-1) refused with exactly one line naming the
    input, the element's index and its value, exit 2, no output written;
    under `mpirun -np 2` (when there is one) the rank holding the bad element
    names its global index;
  * an int64 file for an f32 argument refused as before (`2x8xi64 given`);
  * Python: fn(ids) with int64 ids (and by name) matches torch; out-of-range
    ids raise InvalidArgumentError (a ValueError) with the same text, with
    and without cast=True;
  * bool masks (an ONNX BOOL input, i32 in the program): a '|b1' .npy, a
    deflated .npz member (--shard=data on 2) and numpy bool arrays match
    torch's masked_fill; a bool file for an f32 argument is refused;
  * results in the model's declared dtypes: an ArgMax (int64) and a bool
    comparison written as '<i8' / '|b1' .npy files and printed as i64 / b8
    by mesh-vk-run (--print-plan shows both types), returned as int64 / bool
    arrays and DeviceTensors by Python, equal to torch's.
"""
import os
import shutil
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "samples", "models"))
import zoo  # noqa: E402

run_tool, compile_tool, work = sys.argv[1:4]
os.makedirs(work, exist_ok=True)
failures = []
RANGE = "outside the int32 range the program computes it in ([-2147483648, 2147483647])"


def check(label, ok, detail=""):
    print(("ok   " if ok else "FAIL ") + label + (f": {detail}" if detail and not ok else ""))
    if not ok:
        failures.append(f"{label}: {detail}")


def run(args, cmd=None):
    p = subprocess.run((cmd if cmd is not None else [run_tool]) + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                       timeout=300, env=dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1",
                                             OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1"))
    return p.returncode, p.stdout, p.stderr


exported = zoo.export("gpt", work, torch_runs=1)
ids = exported.x
assert ids.dtype == np.int64, ids.dtype
path = lambda name: os.path.join(work, name)  # noqa: E731


def matches_torch(label, args, extra=()):
    out = path("y.npy")
    if os.path.exists(out):
        os.remove(out)
    rc, _, err = run([exported.onnx] + args + [f"--output=@{out}"] + list(extra))
    if rc != 0:
        return check(label, False, f"exit {rc}: {err.strip()}")
    got = np.load(out)
    error = float(np.abs(got.astype(np.float64) - exported.y).max())
    check(label, got.shape == exported.y.shape and error <= exported.tolerance,
          f"{got.shape} vs {exported.y.shape}, max abs error {error:.3e} > {exported.tolerance:.1e}")


def refused(label, args, line, cmd=None):
    out = path("refused.npy")
    if os.path.exists(out):
        os.remove(out)
    rc, _, err = run(args + [f"--output=@{out}"], cmd)
    lines = [s for s in err.splitlines() if s.startswith("mesh-vk-run:")]
    check(label, rc != 0 and line in lines and not os.path.exists(out),
          f"exit {rc}, stderr {err.strip()!r}, expected {line!r}")
    if cmd is None:
        check(label + " (exit 2, one line)", rc == 2 and len(err.strip().splitlines()) == 1, f"exit {rc}: {err!r}")


# int64 ids as torch takes them, from every kind of file.
np.savez(path("ids_stored.npz"), x=ids)
np.savez_compressed(path("ids_deflated.npz"), x=ids)
for policy, devices in [("none", 1), ("tensor", 4)]:
    shard = [] if policy == "none" else [f"--shard={policy}", f"--devices={devices}"]
    matches_torch(f"cli int64 .npy --shard={policy} --devices={devices}", [f"--input=x=@{exported.x_npy}"] + shard)
matches_torch("cli int64 stored .npz member", [f"--input=@{path('ids_stored.npz')}"])
matches_torch("cli int64 deflated .npz member", [f"--input=@{path('ids_deflated.npz')}:x"], ["--shard=tensor",
                                                                                            "--devices=4"])
matches_torch("cli 4x16xi32=@int64.npy spec", [f"--input=4x16xi32=@{exported.x_npy}"])

# Values that do not fit the program's i32: one line, never a wrap.
high = ids.copy()
high[1, 5] = 2**31
np.save(path("high.npy"), high)
refused("cli id 2^31 refused", [exported.onnx, f"--input=x=@{path('high.npy')}"],
        f"mesh-vk-run: --input[0] ('x'): {path('high.npy')}: int64 element [1, 5] is 2147483648, {RANGE}")
low = ids.copy()
low[3, 15] = -2**31 - 1
np.savez_compressed(path("low.npz"), x=low)
refused("cli id -2^31-1 in a deflated member refused", [exported.onnx, f"--input=@{path('low.npz')}", "--shard=tensor",
                                                        "--devices=4"],
        f"mesh-vk-run: --input[0] ('x'): {path('low.npz')}: member 'x.npy': int64 element [3, 15] is -2147483649, "
        f"{RANGE}")

# An int64 file for an f32 argument is still a type mismatch.
import torch  # noqa: E402
torch.manual_seed(0)
linear = torch.nn.Linear(8, 4).eval()
torch.onnx.export(linear, torch.randn(2, 8), path("linear.onnx"), input_names=["x"], output_names=["y"],
                  opset_version=17)
np.save(path("linear_x64.npy"), np.arange(16, dtype=np.int64).reshape(2, 8))
refused("cli int64 for an f32 argument refused", [path("linear.onnx"), f"--input=@{path('linear_x64.npy')}"],
        f"mesh-vk-run: --input[0]: 2x8xi64 given ({path('linear_x64.npy')}), argument 0 ('x') of 'main' is 2x8xf32")

# bool masks: an ONNX BOOL input is i32 in the program; '|b1' files and
# numpy bool arrays are read as 0/1.
class Masked(torch.nn.Module):
    def forward(self, x, mask):
        return x.masked_fill(mask, 0.0) * 2


x_f = torch.randn(4, 6)
mask = torch.rand(4, 6) > 0.5
torch.onnx.export(Masked(), (x_f, mask), path("masked.onnx"), input_names=["x", "mask"], output_names=["y"],
                  opset_version=17)
masked_y = Masked()(x_f, mask).numpy()
np.save(path("mask.npy"), mask.numpy())
np.save(path("mask_x.npy"), x_f.numpy())
np.savez_compressed(path("masked_in.npz"), x=x_f.numpy(), mask=mask.numpy())
for label, args in [("bool .npy", [f"--input=mask=@{path('mask.npy')}", f"--input=x=@{path('mask_x.npy')}"]),
                    ("bool deflated .npz member, --shard=data --devices=2",
                     [f"--input=@{path('masked_in.npz')}", "--shard=data", "--devices=2"])]:
    out = path("masked_y.npy")
    if os.path.exists(out):
        os.remove(out)
    rc, _, err = run([path("masked.onnx")] + args + [f"--output=@{out}"])
    check(f"cli {label} matches torch", rc == 0 and np.array_equal(np.load(out), masked_y), f"exit {rc}: {err.strip()}")
refused("cli bool for an f32 argument refused",
        [path("masked.onnx"), f"--input=x=@{path('mask.npy')}", f"--input=mask=@{path('mask.npy')}"],
        f"mesh-vk-run: --input[0]: 4x6xb8 given ({path('mask.npy')}), argument 0 ('x') of 'main' is 4x6xf32")

# Results with the model's declared dtypes: an ArgMax (int64) and a bool
# comparison come back as '<i8' / '|b1' files, as torch returns them (on 1
# process and on 2 under --shard=data), and --print-plan names both types.
class ArgMaxAndSign(torch.nn.Module):
    def forward(self, x):
        return x.argmax(-1), x > 0


x_am = torch.randn(4, 6)
torch.onnx.export(ArgMaxAndSign(), x_am, path("argmax.onnx"), input_names=["x"], output_names=["index", "positive"],
                  opset_version=17)
want_index, want_positive = (t.numpy() for t in ArgMaxAndSign()(x_am))
np.save(path("argmax_x.npy"), x_am.numpy())
for shard in ([], ["--shard=data", "--devices=2"]):
    outs = [path("index.npy"), path("positive.npy")]
    for out in outs:
        if os.path.exists(out):
            os.remove(out)
    rc, stdout, err = run([path("argmax.onnx"), f"--input=@{path('argmax_x.npy')}", "--print-plan"] +
                          [f"--output=@{o}" for o in outs] + shard)
    label = "cli int64/bool results " + (" ".join(shard) or "on 1 process")
    if rc != 0:
        check(label, False, f"exit {rc}: {err.strip()}")
        continue
    index, positive = np.load(outs[0]), np.load(outs[1])
    check(label + ": int64 index equals torch's", index.dtype == want_index.dtype == np.int64 and
          np.array_equal(index, want_index), f"{index.dtype} {index.tolist()} vs {want_index.tolist()}")
    check(label + ": bool result equals torch's", positive.dtype == want_positive.dtype == np.bool_ and
          np.array_equal(positive, want_positive), f"{positive.dtype} {positive.tolist()}")
    plan = "outputs: index 4xi64 (i32 on the devices, split ["
    check(label + ": --print-plan shows the declared types", plan in stdout and
          "positive 4x6xb8 (i32 on the devices, split [" in stdout,
          [line for line in stdout.splitlines() if line.startswith("outputs:")])
rc, stdout, err = run([path("argmax.onnx"), f"--input=@{path('argmax_x.npy')}"])
check("cli int64/bool results printed with their types", rc == 0 and "4xi64=[" in stdout and "4x6xb8=[" in stdout,
      stdout + err)

# Under mpirun each rank reads (and checks) only its rows: the rank holding
# the bad element names its index in the whole tensor.
mpirun = shutil.which("mpirun")
if mpirun:
    artifact = path("gpt_data2.mvk")
    rc, _, err = run([exported.onnx, "--shard=data", "--grid-shape=2", "-o", artifact], [compile_tool])
    check("mesh-vk-compile --shard=data --grid-shape=2", rc == 0, err.strip())
    bad = ids.copy()
    bad[3, 2] = -2**40
    np.save(path("bad_rank1.npy"), bad)
    refused("mpirun -np 2: rank 1 refuses its out-of-range id", [run_tool, artifact, f"--input=@{path('bad_rank1.npy')}"],
            f"mesh-vk-run: rank 1 of 2: --input[0] ('x'): {path('bad_rank1.npy')}: int64 element [3, 2] is "
            f"-1099511627776, {RANGE}", cmd=[mpirun, "--oversubscribe", "-np", "2"])
    out = path("mpi_y.npy")
    rc, _, err = run([mpirun, "--oversubscribe", "-np", "2", run_tool, artifact, f"--input=@{exported.x_npy}",
                      f"--output=@{out}"], [])
    ok = rc == 0 and float(np.abs(np.load(out) - exported.y).max()) <= exported.tolerance
    check("mpirun -np 2 with int64 ids matches torch", ok, f"exit {rc}: {err.strip()}")
else:
    print("skip mpirun cases: no mpirun")

# The Python package: the same arrays as torch takes.
import meshvk  # noqa: E402
for policy, devices in [("none", 1), ("tensor", 4)]:
    program = meshvk.compile(exported.onnx, shard=policy, grid_shape=devices)
    with meshvk.Runtime(devices=devices, topology="logical") as rt:
        fn = rt.load(program)["main"]
        for label, y in [("positional", fn(ids)), ("by name", fn(x=ids))]:
            error = float(np.abs(np.asarray(y, np.float64) - exported.y).max())
            check(f"python int64 ids {label} shard={policy} devices={devices}", error <= exported.tolerance,
                  f"max abs error {error:.3e}")
        for cast in (False, True):
            try:
                fn(high, cast=cast)
                check(f"python id 2^31 refused (cast={cast})", False, "no error raised")
            except meshvk.InvalidArgumentError as e:
                want = f"inputs[0] ('x'): int64 element [1, 5] is 2147483648, {RANGE}"
                check(f"python id 2^31 refused (cast={cast})", str(e) == want and isinstance(e, ValueError),
                      f"{str(e)!r}, expected {want!r}")

with meshvk.Runtime(devices=1, topology="logical") as rt:
    fn = rt.load(meshvk.compile(path("masked.onnx")))["main"]
    check("python bool mask matches torch", np.array_equal(fn(x_f.numpy(), mask.numpy()), masked_y))
    check("python bool mask by name matches torch", np.array_equal(fn(mask=mask.numpy(), x=x_f.numpy()), masked_y))

# Python: fn() returns the declared dtypes (host results and DeviceTensors),
# and the signature names both.
for devices, shard in [(1, "none"), (2, "data")]:
    with meshvk.Runtime(devices=devices, topology="logical") as rt:
        fn = rt.load(meshvk.compile(path("argmax.onnx"), shard=shard, grid_shape=devices))["main"]
        index, positive = fn(x_am.numpy())
        check(f"python int64/bool results shard={shard}", index.dtype == np.int64 and positive.dtype == np.bool_ and
              np.array_equal(index, want_index) and np.array_equal(positive, want_positive),
              f"{index.dtype} {positive.dtype}")
        t_index, t_positive = fn(x_am.numpy(), keep_on_device=True)
        check(f"python DeviceTensor int64/bool shard={shard}",
              (t_index.dtype, t_index.device_dtype, t_positive.dtype) == (np.int64, np.int32, np.bool_) and
              np.array_equal(t_index.numpy(), want_index) and np.array_equal(t_positive.numpy(), want_positive),
              f"{t_index.dtype} {t_index.device_dtype} {t_positive.dtype}")
        results = fn.signature["results"]
        check(f"python signature declared dtypes shard={shard}",
              [(r["dtype"], r["declared_dtype"]) for r in results] == [("i32", "i64"), ("i32", "b8")] and
              fn.signature["arguments"][0]["declared_dtype"] == "f32", str(results))

if failures:
    print("\n".join(failures))
    sys.exit(1)
print("PASS: int64 ids and bool masks")
