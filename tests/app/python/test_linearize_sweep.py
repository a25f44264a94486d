# SPDX-License-Identifier: GPL-3.0-or-later
# System.linearize and System.sweep against `nhsim linearize` and `nhsim sweep` on the same
# inputs, bit for bit.
import numpy as np
import pytest

from conftest import nl, parse_csv, same_bits


def eigenvalue_lines(text):
    return np.array([[float(v) for v in line.split()] for line in text.splitlines() if line])


@pytest.mark.parametrize("speed", [0.5, 4.3, 6.1, 9])
def test_bicycle_linearization_matches_nhsim(nhsim, speed):
    expected = eigenvalue_lines(nhsim("linearize", "whipple_bicycle", "--init", "lean_rate=0",
                                      "--init", f"v={speed!r}").stdout)
    lin = nl.load("whipple_bicycle").linearize(init={"lean_rate": 0, "v": speed})
    assert lin.eigenvalues.dtype == np.complex128
    assert same_bits(lin.eigenvalues.real, expected[:, 0])
    assert same_bits(lin.eigenvalues.imag, expected[:, 1])
    n = len(lin.variables)
    assert lin.jacobian.shape == (n, n)
    assert np.allclose(np.sort_complex(np.linalg.eigvals(lin.jacobian)),
                       np.sort_complex(lin.eigenvalues), atol=1e-9)
    assert lin.point["v"] == speed
    assert lin.equilibrium


def test_linearization_at_a_set_parameter_matches_nhsim(nhsim):
    done = nhsim("linearize", "whipple_bicycle", "--json", "--set", "c=0.11", "--init",
                 "lean_rate=0", "--init", "v=5")
    import json
    expected = json.loads(done.stdout)
    lin = nl.load("whipple_bicycle").linearize(set={"c": 0.11}, init={"lean_rate": 0, "v": 5})
    assert lin.variables == expected["variables"]
    assert same_bits(lin.eigenvalues.real, [e[0] for e in expected["eigenvalues"]])
    assert same_bits(lin.eigenvalues.imag, [e[1] for e in expected["eigenvalues"]])
    assert list(lin.point) == list(expected["point"])


def test_not_an_equilibrium_warns_as_nhsim_does(nhsim):
    done = nhsim("linearize", "whipple_bicycle")
    line = [l for l in done.stderr.splitlines() if "not an equilibrium" in l][0]
    with pytest.warns(UserWarning) as caught:
        lin = nl.load("whipple_bicycle").linearize()
    assert not lin.equilibrium
    assert line == "nhsim: warning: " + str(caught[0].message)


def test_sweep_grid_matches_nhsim(nhsim):
    done = nhsim("sweep", "chaplygin_sleigh", "--vary", "a=0.1:0.4:4", "--vary", "omega=-1:2:3",
                 "--measure", "final(theta)", "--measure", "wmax=max(abs(omega))",
                 "--t-end", "2", "--jobs", "2")
    header, rows = parse_csv(done.stdout)
    table = nl.load("chaplygin_sleigh").sweep(
        vary={"a": (0.1, 0.4, 4), "omega": "-1:2:3"},
        measures=["final(theta)", "wmax=max(abs(omega))"], t_end=2, jobs=2)
    assert list(table.dtype.names) == header
    assert isinstance(table, np.ndarray) and table.shape == (len(rows),)
    for j, name in enumerate(header[:-1]):
        assert same_bits(table[name], [row[j] for row in rows])
    assert list(table["status"]) == [row[-1] for row in rows]


def test_sweep_sample_matches_nhsim_whatever_the_jobs(nhsim):
    done = nhsim("sweep", "chaplygin_sleigh", "--sample", "m=uniform:0.5:2", "--sample",
                 "v=normal:0.3:0.1", "--count", "7", "--seed", "11", "--measure",
                 "mean(energy)", "--t-end", "1", "--jobs", "1")
    header, rows = parse_csv(done.stdout)
    table = nl.load("chaplygin_sleigh").sweep(
        sample={"m": ("uniform", 0.5, 2), "v": "normal:0.3:0.1"}, count=7, seed=11,
        measures="mean(energy)", t_end=1, jobs=2)
    for j, name in enumerate(header[:-1]):
        assert same_bits(table[name], [row[j] for row in rows])
    assert set(table["status"]) == {"ok"}
