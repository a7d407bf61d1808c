#!/usr/bin/env python3
"""Runs the INSTALLED mesh-vk-conformance and checks its reports.

    run_kit.py PREFIX OUT_DIR [--expect-topologies=N] [--expect-fail=KIND:REGEX ...]
               [--allow-fail=KIND:REGEX ...] [--expect-no-failure] [--expect-skip=REGEX::REASON_REGEX ...] [kit flags...]

Passes when the kit exits 0 (nothing failed), its JUnit file has the
structure a CI dashboard reads (testsuites > testsuite > testcase; the
tests/failures/skipped attributes equal the elements they count; every
skipped case says why), the JUnit totals equal the summary's last line, and
the JSON report parses with one bandwidth entry per passing copy case.

Fault runs (a corruption mode of the fault-injection layer on):
--expect-fail=KIND:REGEX says the cases whose "TOPOLOGY/CASE" fully matches
REGEX must fail, for the reason KIND (below); every other case must pass or
be not supported, and the kit must exit 1. --allow-fail=KIND:REGEX: the
matching cases may pass or fail for the reason KIND, and at least one of
them must fail (a fault whose effect depends on what memory held before,
such as the stale last byte of a short copy into a reused buffer, which
may already be the right byte). --expect-no-failure: a fault run
in which the mode must change nothing (exit 0). Either way, when
MESHVK_FAULT_REPORT is set, the layer must have written a "corrupt:" line
(the mode fired), except with --expect-no-failure.

--expect-skip=REGEX::REASON_REGEX: the cases matching REGEX must be not
supported with a reason REASON_REGEX finds, and no other case may be (a
device that lacks a feature, reported as such).

Reason kinds, from how the kit's checks are built, never from its output:
  kept: a copy case whose destination kept what it held before: the kit
        fills it with the complement of the pattern, so the first word
        differs and got == ~expected.
  short: a copy case that lost the last byte of the copy: the first
        difference is the last word (byte size-4), and only its top byte
        (little-endian: the last byte) differs from the pattern: the
        complement's top byte stayed, got ^ expected == 0xff000000.
  results: a program whose results differ from the host reference.
  validation: the validation case (messages from the layers, e.g. the
        emulated group's race detector).
"""
import json
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET


def fail(msg):
    print("run_kit: " + msg)
    sys.exit(1)


def check_junit(path):
    root = ET.parse(path).getroot()
    if root.tag != "testsuites":
        fail(f"{path}: root element <{root.tag}>, expected <testsuites>")
    totals = {"tests": 0, "failures": 0, "skipped": 0}
    for suite in root:
        if suite.tag != "testsuite":
            fail(f"{path}: <{suite.tag}> under <testsuites>")
        cases = suite.findall("testcase")
        counted = {"tests": len(cases),
                   "failures": sum(1 for c in cases if c.find("failure") is not None),
                   "skipped": sum(1 for c in cases if c.find("skipped") is not None)}
        for key, value in counted.items():
            if int(suite.get(key)) != value:
                fail(f"{path}: testsuite {suite.get('name')} says {key}={suite.get(key)}, has {value}")
            totals[key] += value
        for c in cases:
            s = c.find("skipped")
            if s is not None and not s.get("message"):
                fail(f"{path}: {c.get('name')} skipped without a reason")
    for key, value in totals.items():
        if int(root.get(key)) != value:
            fail(f"{path}: testsuites says {key}={root.get(key)}, its suites hold {value}")
    return root, totals


COPY_REASON = re.compile(r"word (\d+) \(byte (\d+)\): got (\d+), expected (\d+)$")


def reason_ok(kind, reason, copy_bytes):
    """Whether a failure's reason is the one KIND predicts (module docstring)."""
    if kind == "results":
        return re.match(r"result \d+ \[[\d, ]*\]: got .*, expected ", reason) is not None
    if kind == "validation":
        return re.match(r"\d+ validation messages", reason) is not None
    m = COPY_REASON.search(reason)
    if not m:
        return False
    word, byte, got, want = map(int, m.groups())
    if kind == "kept":
        return word == 0 and got == (~want & 0xFFFFFFFF)
    if kind == "short":
        return word == copy_bytes // 4 - 1 and byte == copy_bytes - 4 and got ^ want == 0xFF000000
    fail(f"unknown reason kind {kind!r}")


def check_fault_run(data, expectations, copy_bytes):
    """Every case matching a must-fail expectation failed for its reason, at
    least one matching each may-fail expectation did; no other case failed."""
    matched = {i: 0 for i in range(len(expectations))}
    for t in data["topologies"]:
        for c in t["cases"]:
            name = t["name"] + "/" + c["name"]
            hits = [i for i, (_, rx, _) in enumerate(expectations) if rx.fullmatch(name)]
            if not hits:
                if c["outcome"] == "fail":
                    fail(f"{name} failed, and this fault mode should not touch it: {c['reason']}")
                continue
            kind, _, must = expectations[hits[0]]
            if c["outcome"] != "fail":
                if must:
                    fail(f"{name}: {c['outcome']}, expected a failure ({kind}) under this fault mode")
                continue
            matched[hits[0]] += 1
            if not reason_ok(kind, c["reason"], copy_bytes):
                fail(f"{name}: failed for another reason than {kind}: {c['reason']}")
    for i, n in matched.items():
        if n == 0:
            kind, rx, must = expectations[i]
            flag = "--expect-fail" if must else "--allow-fail"
            fail(f"no case matching {flag}={kind}:{rx.pattern} failed")
    return sum(matched.values())


def check_skips(data, skips):
    """The cases matching a skip expectation are not supported, for the reason given; no other is."""
    seen = 0
    for t in data["topologies"]:
        for c in t["cases"]:
            name = t["name"] + "/" + c["name"]
            hit = [why for rx, why in skips if rx.fullmatch(name)]
            if hit and (c["outcome"] != "not supported" or not hit[0].search(c["reason"])):
                fail(f"{name}: {c['outcome']} ({c['reason']}), expected not supported: {hit[0].pattern}")
            if not hit and c["outcome"] == "not supported":
                fail(f"{name} is not supported ({c['reason']}), expected it to run")
            seen += bool(hit)
    if seen == 0:
        fail("no case matches --expect-skip")


def main():
    prefix, out = sys.argv[1], sys.argv[2]
    rest = sys.argv[3:]
    expect = None
    expectations, no_failure, skips = [], False, []
    while rest and rest[0].startswith(("--expect", "--allow-fail")):
        flag = rest.pop(0)
        if flag.startswith("--expect-topologies="):
            expect = int(flag.split("=", 1)[1])
        elif flag.startswith("--expect-fail=") or flag.startswith("--allow-fail="):
            kind, rx = flag.split("=", 1)[1].split(":", 1)
            expectations.append((kind, re.compile(rx), flag.startswith("--expect-fail=")))
        elif flag.startswith("--expect-skip="):
            rx, why = flag.split("=", 1)[1].split("::", 1)
            skips.append((re.compile(rx), re.compile(why)))
        elif flag == "--expect-no-failure":
            no_failure = True
        else:
            fail(f"unknown flag {flag}")
    fault_run = bool(expectations) or no_failure
    copy_bytes = 16 << 20
    for r in rest:
        if r.startswith("--bandwidth-bytes="):
            copy_bytes = int(r.split("=", 1)[1])
    os.makedirs(out, exist_ok=True)
    fault_report = os.environ.get("MESHVK_FAULT_REPORT")
    if fault_report and os.path.exists(fault_report):
        os.remove(fault_report)  # the layer appends: only this run's lines
    junit, report = os.path.join(out, "kit.xml"), os.path.join(out, "kit.json")
    kit = os.path.join(prefix, "bin", "mesh-vk-conformance")
    proc = subprocess.run([kit, "--validation", f"--junit={junit}", f"--json={report}"] + rest,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=1200)
    print(proc.stdout)
    want_rc = 1 if expectations else 0
    if proc.returncode != want_rc:
        fail(f"the kit exited {proc.returncode}, expected {want_rc}")
    root, totals = check_junit(junit)
    m = re.search(r"^total: (\d+) topologies, (\d+) pass, (\d+) fail, (\d+) not supported$", proc.stdout, re.M)
    if not m:
        fail("no total line in the summary")
    topologies, passed, failed, skipped = map(int, m.groups())
    if (passed + failed + skipped, failed, skipped) != (totals["tests"], totals["failures"], totals["skipped"]):
        fail(f"summary {m.group(0)!r} differs from the JUnit totals {totals}")
    if len(root) != topologies:
        fail(f"summary names {topologies} topologies, the JUnit file {len(root)}")
    if expect is not None and topologies != expect:
        fail(f"{topologies} topologies found, expected {expect} on this configuration")
    data = json.load(open(report))
    for t in data["topologies"]:
        copies = [c for c in t["cases"] if c["name"].startswith("copy.") and c["outcome"] == "pass"]
        if len(copies) != len(t["bandwidth"]):
            fail(f"{t['name']}: {len(copies)} passing copies, {len(t['bandwidth'])} bandwidth entries")
        for b in t["bandwidth"]:
            if not b["gb_per_s"] > 0:
                fail(f"{t['name']}: bandwidth {b} is not positive")
    junit_failed = {(s.get("name"), c.get("name")) for s in root for c in s.findall("testcase")
                    if c.find("failure") is not None}
    json_failed = {(t["name"], c["name"]) for t in data["topologies"] for c in t["cases"] if c["outcome"] == "fail"}
    if junit_failed != json_failed:
        fail(f"the JUnit and JSON reports name different failures: {sorted(junit_failed ^ json_failed)}")
    if skips:
        check_skips(data, skips)
    if fault_run:
        n = check_fault_run(data, expectations, copy_bytes)
        if fault_report and not no_failure:
            lines = open(fault_report).read() if os.path.exists(fault_report) else ""
            if "corrupt:" not in lines:
                fail(f"{fault_report} has no 'corrupt:' line: the fault mode never fired")
        print(f"run_kit: fault run ok ({n} cases failed as expected, the other "
              f"{totals['tests'] - n} passed or are not supported)")
        return
    print(f"run_kit: ok ({totals['tests']} cases, {totals['skipped']} not supported)")


if __name__ == "__main__":
    main()
