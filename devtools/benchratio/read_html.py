"""Times pandas.read_html (lxml flavour) on one HTML file, for benchratio.

Usage: python3 read_html.py FILE RUNS

Prints the median CPU time of RUNS calls in nanoseconds (process time, as
benchratio measures its side). The file is read into memory first, so only
the call is timed, as benchratio times snapshot.Load plus domsnap.Extract on
bytes already in memory. Needs pandas
and lxml; benchratio -pandas runs it when they are installed.
"""

import statistics
import sys
import time
from io import StringIO

import pandas


def main():
    path, runs = sys.argv[1], int(sys.argv[2])
    with open(path, encoding="utf-8") as f:
        text = f.read()
    times = []
    for _ in range(runs):
        start = time.process_time()
        tables = pandas.read_html(StringIO(text), flavor="lxml")
        times.append(time.process_time() - start)
        if not tables:
            sys.exit("read_html found no table")
    print(int(statistics.median(times) * 1e9))


if __name__ == "__main__":
    main()
