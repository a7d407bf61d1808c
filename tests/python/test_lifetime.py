"""Deterministic close, garbage collection without leaks, threads and the GIL."""
import gc
import threading
import time

import numpy as np

import meshvk
from conftest import compiled, rss_kib, uniform


def run_once(prog, args, close):
    rt = meshvk.Runtime(devices=2)
    loaded = rt.load(prog)
    out = loaded["main"](*args)
    if close:
        with rt:
            pass
    else:
        del rt, loaded
        gc.collect()
    return out


def test_repeated_load_run_close_does_not_grow_memory(rng):
    prog = compiled("seed_matmul")
    a, b = uniform(rng, (2, 3)), uniform(rng, (3, 2))
    for close in (True, False):  # explicit close, then the garbage-collection path
        for _ in range(6):  # warm-up: driver caches, lazily loaded code, malloc arenas
            run_once(prog, (a, b), close)
        # Batches of 8 runtimes, up to 3: passes once a batch grows less than
        # 2 MiB. A runtime kept alive costs ~6 MiB, a program ~1.2 MiB, so one
        # leak per iteration adds 9+ MiB to every batch and fails all three.
        # Growth that is not a leak comes once: alone, the first batch after the
        # warm-up grew +4 to +292 KiB; on a loaded machine (load 5-6, 3 copies at
        # once) up to +1.3 MiB in the first batch of 12, then +4 to +212 KiB
        # (new malloc arenas and driver threads when threads contend), which a
        # single 2 MiB bound left little room for.
        grown = []
        for _ in range(3):
            before = rss_kib()
            for _ in range(8):
                np.testing.assert_allclose(run_once(prog, (a, b), close), a @ b, rtol=1e-5, atol=1e-6)
            grown.append(rss_kib() - before)
            if grown[-1] < 2048:
                break
        assert grown[-1] < 2048, "RSS grew by %s KiB in batches of 8 runtimes (close=%s)" % (grown, close)


def test_rss_measure_sees_a_leak(rng):
    """Negative control for the test above: three runtimes kept alive exceed its 2 MiB bound (a batch
    of 8 leaking one each would grow more than twice that)."""
    prog = compiled("seed_matmul")
    a, b = uniform(rng, (2, 3)), uniform(rng, (3, 2))
    run_once(prog, (a, b), True)
    before, kept = rss_kib(), []
    for _ in range(3):
        rt = meshvk.Runtime(devices=2)
        rt.load(prog)["main"](a, b)
        kept.append(rt)
    assert rss_kib() - before > 2048
    for rt in kept:
        rt.close()


def test_function_outlives_its_runtime_object(rng):
    main = meshvk.Runtime(devices=2).load(compiled("seed_matmul"))["main"]
    gc.collect()  # the Runtime object is gone; the function keeps the devices alive
    a, b = uniform(rng, (2, 3)), uniform(rng, (3, 2))
    np.testing.assert_allclose(main(a, b), a @ b, rtol=1e-5, atol=1e-6)


def test_two_threads_run_programs_at_once(make_runtime, rng):
    rt = make_runtime(devices=4)
    rows = rt.load(compiled("matmul_rows"))["main"]
    mlp = rt.load(compiled("mlp_megatron"))["main"]
    a, b = uniform(rng, (256, 128)), uniform(rng, (128, 64))
    x, w1, w2 = uniform(rng, (32, 64)), uniform(rng, (64, 256)), uniform(rng, (256, 64))
    jobs = [(rows, (a, b), a @ b), (mlp, (x, w1, w2), np.maximum(x @ w1, 0) @ w2),
            (rows, (a, b), a @ b)]  # the same function from a second thread too
    errors = []

    def work(fn, args, want):
        try:
            for _ in range(8):
                np.testing.assert_allclose(fn(*args), want, atol=1e-3, rtol=1e-4)
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=job) for job in jobs]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []


def test_gil_is_released_while_a_program_runs(make_runtime, rng):
    main = make_runtime(devices=4).load(compiled("matmul_rows"))["main"]
    a, b = uniform(rng, (256, 128)), uniform(rng, (128, 64))
    inside = threading.Event()
    call = {}

    def run():
        inside.set()
        start = time.perf_counter()
        main.benchmark(a, b, iterations=30)  # one call into C++, a few hundred ms
        call["seconds"] = time.perf_counter() - start

    worker = threading.Thread(target=run)
    worker.start()
    inside.wait()
    ticks, last, widest = 0, time.perf_counter(), 0.0
    while worker.is_alive():
        now = time.perf_counter()
        widest, last, ticks = max(widest, now - last), now, ticks + 1
    worker.join()
    # Holding the GIL, the call would stop this loop for its whole duration.
    assert call["seconds"] > 0.05
    assert widest < 0.5 * call["seconds"], (widest, call["seconds"], ticks)


def test_runtimes_with_and_without_validation_close_in_any_order(rng):
    """A validated runtime, then one without validation (and a device probe), closed oldest first."""
    a, b = uniform(rng, (2, 3)), uniform(rng, (3, 2))
    validated = meshvk.Runtime(devices=2, validation=True)
    plain = meshvk.Runtime(devices=2, validation=False)
    meshvk.devices()
    for rt in (validated, plain):
        np.testing.assert_allclose(rt.load(compiled("seed_matmul"))["main"](a, b), a @ b, rtol=1e-5, atol=1e-6)
    assert validated.validation_messages == []
    validated.close()
    plain.close()
