"""The peak resident memory of a benchmark's child process."""


def peak_mb() -> float:
    """This process's own high-water resident set in MB (VmHWM). `ru_maxrss` would not do in a child: on
    Linux it carries the parent's peak over fork and exec."""
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmHWM:")) / 1024
