#!/usr/bin/env python3
"""Runs the INSTALLED mesh-vk-conformance and checks its reports.

    run_kit.py PREFIX OUT_DIR [--expect-topologies=N] [kit flags...]

Passes when the kit exits 0 (nothing failed), its JUnit file has the
structure a CI dashboard reads (testsuites > testsuite > testcase; the
tests/failures/skipped attributes equal the elements they count; every
skipped case says why), the JUnit totals equal the summary's last line, and
the JSON report parses with one bandwidth entry per passing copy case.
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


def main():
    prefix, out = sys.argv[1], sys.argv[2]
    rest = sys.argv[3:]
    expect = None
    if rest and rest[0].startswith("--expect-topologies="):
        expect = int(rest.pop(0).split("=", 1)[1])
    os.makedirs(out, exist_ok=True)
    junit, report = os.path.join(out, "kit.xml"), os.path.join(out, "kit.json")
    kit = os.path.join(prefix, "bin", "mesh-vk-conformance")
    proc = subprocess.run([kit, "--validation", f"--junit={junit}", f"--json={report}"] + rest,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=1200)
    print(proc.stdout)
    if proc.returncode != 0:
        fail(f"the kit exited {proc.returncode}")
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
    print(f"run_kit: ok ({totals['tests']} cases, {totals['skipped']} not supported)")


if __name__ == "__main__":
    main()
