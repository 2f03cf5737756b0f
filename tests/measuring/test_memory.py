"""The one ``/proc`` reader (ecwidth.memory), which the survey and the benchmark share."""

import os

from ecwidth.measuring.memory import read_proc, status_bytes

STATUS = "Name:\tpython\nVmHWM:\t  2048 kB\nVmRSS:\t  1024 kB\nThreads:\t4\n"
CPUINFO = "processor\t: 0\nmodel name\t: Some CPU @ 2.0GHz\nprocessor\t: 1\nmodel name\t: Some CPU @ 2.0GHz\n"


def test_read_proc_takes_the_first_line_of_each_key(tmp_path):
    (tmp_path / "status").write_text(STATUS)
    (tmp_path / "cpuinfo").write_text(CPUINFO)
    assert read_proc(tmp_path / "status", ["VmHWM", "VmRSS", "VmSwap"]) == {"VmHWM": "2048 kB", "VmRSS": "1024 kB"}
    assert read_proc(tmp_path / "cpuinfo", ["model name"]) == {"model name": "Some CPU @ 2.0GHz"}
    assert read_proc(tmp_path / "absent", ["VmHWM"]) == {}


def test_status_bytes_of_this_process_and_of_one_that_is_gone():
    if not os.path.exists("/proc/self/status"):
        assert status_bytes("VmRSS") == {}
        return
    mine = status_bytes("VmRSS", "VmHWM")
    assert 0 < mine["VmRSS"] <= mine["VmHWM"]
    assert status_bytes("VmRSS", pid=os.getpid())["VmRSS"] > 0
    assert status_bytes("VmRSS", pid=2**22 + 1) == {}  # above the kernel's pid limit: no such process
