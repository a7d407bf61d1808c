#!/usr/bin/env python3
"""Runs a meshvk tool and checks the files it writes, independently of the
code that wrote them:

  check_outputs.py trace FILE.json --processes P --copies C --invokes N [--arrows] -- TOOL ARGS...
      the trace parses as JSON; every event has the fields Perfetto needs
      (ph, name, pid, tid, ts; dur for complete events); one device track per
      process; C copy events per invoke over N invokes; every flow arrow runs
      forward in time; with --arrows every copy has an arrow from its producer
      and one to its consumer (a program with kernels), so it lies between them
      (producer ends before the copy starts, the copy ends before the consumer
      starts).
  check_outputs.py benchmark --processes P --dispatches D [--total-flops F] -- TOOL ARGS...
      stdout is the JSON document alone and has the fields README.md documents;
      the dispatches' "flops" add up to F (the program's arithmetic, counted by hand).
  check_outputs.py plan-graph FILE.dot --copies C --bytes B -- TOOL ARGS...
      `dot -Tsvg` renders it; exactly C copy edges whose bytes sum to B (the
      plan's numbers, from mesh-vk-compile --print-plan / the test's own count).
"""
import json
import re
import subprocess
import sys


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def run(command):
    result = subprocess.run(command, capture_output=True, text=True, timeout=120)
    if result.returncode != 0:
        fail("exit %d: %s\nstdout:\n%s\nstderr:\n%s" % (result.returncode, " ".join(command), result.stdout[-2000:],
                                                       result.stderr[-2000:]))
    return result


def check_trace(path, processes, copies, invokes, arrows):
    with open(path) as f:
        trace = json.load(f)
    events = trace["traceEvents"]
    spans = []
    for e in events:
        for key in ("ph", "name", "pid", "tid", "ts"):
            if key not in e:
                fail("event without '%s': %s" % (key, e))
        if e["ph"] == "X":
            if "dur" not in e or e["dur"] < 0:
                fail("complete event without a valid dur: %s" % e)
            spans.append(e)
    names = {e["pid"]: e["args"]["name"] for e in events if e["ph"] == "M" and e["name"] == "process_name"}
    for p in range(processes):
        if not names.get(1 + p, "").startswith("process %d" % p):
            fail("no device track for process %d (tracks: %s)" % (p, names))
    copy_events = [e for e in spans if "copy" in e["cat"].split(",")]
    if len(copy_events) != copies * invokes:
        fail("%d copy events, expected %d copies x %d invokes" % (len(copy_events), copies, invokes))
    for e in copy_events:
        for key in ("bytes", "path", "from_process", "invoke", "command"):
            if key not in e["args"]:
                fail("copy event without args.%s: %s" % (key, e))
    seen_invokes = {e["args"]["invoke"] for e in spans if e["cat"].startswith("device")}
    if seen_invokes != set(range(invokes)):
        fail("device events of invokes %s, expected 0..%d" % (sorted(seen_invokes), invokes - 1))
    for step in ("write inputs", "wait", "read results"):
        if not any(e["name"] == step and e["pid"] == 0 for e in spans):
            fail("no host event '%s'" % step)
    if not any(e["name"].startswith("submit process") for e in spans):
        fail("no submit events")
    # Flow arrows: "s" at the start of the source slice, "f" at the start of the target.
    by_start = {(e["pid"], e["ts"]): e for e in spans if e["cat"].startswith("device")}
    starts = {e["id"]: e for e in events if e["ph"] == "s"}
    finishes = {e["id"]: e for e in events if e["ph"] == "f"}
    if set(starts) != set(finishes):
        fail("flow arrows without both ends")
    produced, consumed = set(), set()
    for fid, s in starts.items():
        f = finishes[fid]
        src, dst = by_start.get((s["pid"], s["ts"])), by_start.get((f["pid"], f["ts"]))
        if src is None or dst is None:
            fail("flow %s does not start/end on a device event" % fid)
        if src["ts"] + src["dur"] > dst["ts"] + 1e-3:
            fail("%s (%s) ends at %.3f us after %s (%s) starts at %.3f us" %
                 (src["name"], s["name"], src["ts"] + src["dur"], dst["name"], f["name"], dst["ts"]))
        if s["name"] == "produces":
            produced.add(id(dst))
        else:
            consumed.add(id(src))
    for e in copy_events:
        if arrows and (id(e) not in produced or id(e) not in consumed):
            fail("copy without a producer or consumer arrow: %s" % e)
    # A process's "wait for process N" starts at the phase boundary it waits
    # at: it never encloses that process's own commands of earlier phases.
    for w in spans:
        if not w["name"].startswith("wait for process"):
            continue
        for e in spans:
            if (e is not w and e["pid"] == w["pid"] and e["args"].get("invoke") == w["args"].get("invoke")
                    and e["args"].get("phase", w["args"]["phase"]) < w["args"]["phase"]
                    and e["ts"] + e["dur"] > w["ts"] + 1e-3):
                fail("'%s' of phase %d starts at %.3f us, before its own %s of phase %d ends at %.3f us" %
                     (w["name"], w["args"]["phase"], w["ts"], e["name"], e["args"]["phase"], e["ts"] + e["dur"]))
    print("trace ok: %d events, %d copies between their producers and consumers over %d invokes" %
          (len(events), len(copy_events), invokes))


def check_benchmark(stdout, processes, expected_dispatches, total_flops):
    doc = json.loads(stdout)
    context = doc["context"]
    for key, kind in (("date", str), ("host_name", str), ("executable", str), ("num_cpus", int),
                      ("library_build_type", str), ("meshvk_version", str), ("program", str), ("function", str),
                      ("device", str), ("processes", int), ("warmup_runs", int), ("command_buffers", int),
                      ("commands", int), ("record_ms", (int, float)), ("copy_bytes_per_second", (int, float)),
                      ("fma_flops_per_second", (int, float)), ("roofline", list), ("create_ms", (int, float)),
                      ("pipelines", int), ("pipeline_create_ms", (int, float)), ("pipeline_cache", str),
                      ("pipeline_cache_loaded_bytes", int), ("pipeline_cache_hits", int)):
        if not isinstance(context.get(key), kind):
            fail("context.%s missing or not %s" % (key, kind))
    if context["processes"] != processes:
        fail("context.processes %d, expected %d" % (context["processes"], processes))
    if context["copy_bytes_per_second"] <= 0 or context["fma_flops_per_second"] <= 0:
        fail("the probes measured no roofs")
    if context["pipelines"] <= 0 or not 0 < context["pipeline_create_ms"] <= context["create_ms"]:
        fail("program creation: %d pipelines in %s ms of %s ms" % (context["pipelines"], context["pipeline_create_ms"],
                                                                  context["create_ms"]))
    if context["pipeline_cache"] not in ("cold", "warm", "partly warm"):
        fail("context.pipeline_cache %r" % context["pipeline_cache"])
    runs = {}
    for b in doc["benchmarks"]:
        for key, kind in (("name", str), ("run_name", str), ("run_type", str), ("aggregate_name", str),
                          ("repetitions", int), ("threads", int), ("iterations", int), ("real_time", (int, float)),
                          ("cpu_time", (int, float)), ("time_unit", str), ("family_index", int)):
            if not isinstance(b.get(key), kind):
                fail("benchmark %s: %s missing or not %s" % (b.get("name"), key, kind))
        if b["run_type"] != "aggregate" or b["time_unit"] != "ms" or b["name"] != b["run_name"] + "_" + b["aggregate_name"]:
            fail("benchmark %s: unexpected run_type/time_unit/name" % b["name"])
        runs.setdefault(b["run_name"], {})[b["aggregate_name"]] = b
    for name, aggregates in runs.items():
        if set(aggregates) != {"min", "median", "max"}:
            fail("%s has aggregates %s" % (name, sorted(aggregates)))
        if not aggregates["min"]["real_time"] <= aggregates["median"]["real_time"] <= aggregates["max"]["real_time"]:
            fail("%s: min <= median <= max does not hold" % name)
    function = context["function"]
    if function + "/wall" not in runs:
        fail("no wall series")
    phases = [n for n in runs if re.match(re.escape(function) + r"/phase_\d+/process_\d+/gpu$", n)]
    dispatches = [n for n in runs if re.search(r"/process_\d+/command_\d+/gpu$", n)]
    if not phases or len(dispatches) != expected_dispatches:
        fail("%d per-phase series, %d per-dispatch series (expected %d)" % (len(phases), len(dispatches),
                                                                         expected_dispatches))
    for n in dispatches:
        b = runs[n]["median"]
        for key in ("bytes", "bytes_per_second", "roofline_ms", "roofline_fraction"):
            if key not in b:
                fail("%s without %s" % (n, key))
    if total_flops is not None:
        counted = sum(runs[n]["median"].get("flops", 0) for n in dispatches)
        if counted != total_flops:
            fail("dispatches count %d FLOPs, the program does %d" % (counted, total_flops))
        for n in dispatches:
            b = runs[n]["median"]
            if b.get("flops") and "flops_per_second" not in b:
                fail("%s has flops but no flops_per_second" % n)
    if len(context["roofline"]) != len(dispatches):
        fail("%d roofline lines for %d dispatches" % (len(context["roofline"]), len(dispatches)))
    print("benchmark ok: %d series (%d phases, %d dispatches)" % (len(runs), len(phases), len(dispatches)))


def check_plan_graph(path, copies, total_bytes):
    run(["dot", "-Tsvg", path, "-o", path + ".svg"])
    with open(path) as f:
        text = f.read()
    edges = re.findall(r'->[^\[]*\[class="copy"[^\]]*bytes=(\d+)', text)
    if len(edges) != copies:
        fail("%d copy edges, expected %d" % (len(edges), copies))
    if sum(int(b) for b in edges) != total_bytes:
        fail("copy edges carry %d bytes, the plan says %d" % (sum(int(b) for b in edges), total_bytes))
    with open(path + ".svg") as f:
        if "<svg" not in f.read():
            fail("dot wrote no SVG")
    print("plan graph ok: %d copy edges, %d bytes, renders with dot -Tsvg" % (copies, total_bytes))


def main():
    args = sys.argv[1:]
    split = args.index("--")
    options, command = args[:split], args[split + 1:]
    kind = options[0]

    def value(name):
        return options[options.index(name) + 1]

    result = run(command)
    if kind == "trace":
        check_trace(options[1], int(value("--processes")), int(value("--copies")), int(value("--invokes")),
                    "--arrows" in options)
    elif kind == "benchmark":
        check_benchmark(result.stdout, int(value("--processes")), int(value("--dispatches")),
                        int(value("--total-flops")) if "--total-flops" in options else None)
    elif kind == "plan-graph":
        check_plan_graph(options[1], int(value("--copies")), int(value("--bytes")))
    else:
        fail("unknown check " + kind)


if __name__ == "__main__":
    main()
