# SPDX-License-Identifier: GPL-3.0-or-later
# Shared by the Python module's suites: the module (the suites are skipped where it is not
# built) and nhsim, run on the same inputs to compare with.
import os
import subprocess

import numpy as np
import pytest

nl = pytest.importorskip("nonholonomic_lab")


class Nhsim:
    """nhsim as a child process (NHSIM_PATH, set by CTest)."""

    def __init__(self, path):
        self.path = path

    def __call__(self, *args, check=True):
        done = subprocess.run([self.path, *args], capture_output=True, text=True, check=False)
        if check and done.returncode != 0:
            raise AssertionError(f"nhsim {' '.join(args)}: exit {done.returncode}: {done.stderr}")
        return done

    def error(self, *args):
        """The one-line message of a command that fails, without 'nhsim: error: '."""
        done = self(*args, check=False)
        assert done.returncode != 0, f"nhsim {' '.join(args)} succeeded"
        lines = [line for line in done.stderr.splitlines() if line.startswith("nhsim: error: ")]
        assert len(lines) == 1, done.stderr
        return lines[0][len("nhsim: error: "):], done.returncode


@pytest.fixture(scope="session")
def nhsim():
    path = os.environ.get("NHSIM_PATH")
    if not path or not os.access(path, os.X_OK):
        pytest.skip("NHSIM_PATH does not name nhsim (run the suite through ctest)")
    return Nhsim(path)


def parse_csv(text):
    """The header and the rows of nhsim's CSV ('#' lines skipped): each number parsed exactly
    (nhsim prints shortest round-trip numbers), text fields kept."""
    lines = [line for line in text.splitlines() if line and not line.startswith("#")]
    header = lines[0].split(",")
    rows = []
    for line in lines[1:]:
        fields = line.split(",", len(header) - 1)
        rows.append([_value(f) for f in fields])
    return header, rows


def _value(field):
    try:
        return float(field)
    except ValueError:
        return field.strip('"')


def same_bits(a, b):
    """Whether two float arrays hold the same doubles, bit for bit (NaN equal to NaN)."""
    a = np.ascontiguousarray(a, dtype=np.float64)
    b = np.ascontiguousarray(b, dtype=np.float64)
    if a.shape != b.shape:
        return False
    nan = np.isnan(a) & np.isnan(b)
    return bool(np.all(nan | (a.view(np.uint64) == b.view(np.uint64))))
