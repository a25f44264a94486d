# SPDX-License-Identifier: GPL-3.0-or-later
# System.run against `nhsim run` on the same inputs: the same columns and every value the same
# double, bit for bit; the Trajectory's views (dict, record array, attributes).
import numpy as np
import pytest

from conftest import nl, parse_csv, same_bits

CASES = [
    ("chaplygin_sleigh", dict(t_end=3, dt_out=0.05), []),
    ("chaplygin_sleigh", dict(t_end=2.5, dt_out=0.1, set={"a": 0.35}, init={"omega": -2}),
     ["--set", "a=0.35", "--init", "omega=-2"]),
    ("whipple_bicycle", dict(t_end=2, dt_out=0.01, init={"v": 4.6, "lean_rate": 0.1}),
     ["--init", "v=4.6", "--init", "lean_rate=0.1"]),
    ("ball_on_turntable", dict(t_end=1.3, dt_out=0.1, integrator="rk4", step=0.001),
     ["--integrator", "rk4", "--step", "0.001"]),
    ("rolling_disk_3d", dict(t_end=1, dt_out=0.02, rtol=1e-10, atol=1e-12, formulation="gibbs-appell"),
     ["--rtol", "1e-10", "--atol", "1e-12", "--formulation", "gibbs-appell"]),
    ("chaplygin_sleigh", dict(t_end=1, dt_out=0.1, dynamics="vakonomic"),
     ["--dynamics", "vakonomic"]),
    # The sensitivity columns after the run's own, as nhsim writes them.
    ("rattleback", dict(t_end=0.5, dt_out=0.1, sensitivity=["w3", "qx"]),
     ["--sensitivity", "w3", "--sensitivity", "qx"]),
    ("ball_on_turntable", dict(t_end=1, dt_out=0.1, sensitivity=["Omega0", "vx"]),
     ["--sensitivity", "Omega0", "--sensitivity", "vx"]),
    ("chaplygin_sleigh", dict(t_end=1, dt_out=0.1, sensitivity="v,omega", integrator="rk4",
                              step=0.01),
     ["--sensitivity", "v,omega", "--integrator", "rk4", "--step", "0.01"]),
]


def nhsim_args(system, kwargs, extra):
    args = ["run", system, "--t-end", repr(float(kwargs["t_end"])), "--dt-out",
            repr(float(kwargs["dt_out"])), *extra]
    return args


@pytest.mark.parametrize("system,kwargs,extra", CASES)
def test_run_matches_nhsim_bit_for_bit(nhsim, system, kwargs, extra):
    header, rows = parse_csv(nhsim(*nhsim_args(system, kwargs, extra)).stdout)
    run = nl.load(system).run(**kwargs)
    assert run.columns == header
    assert len(run) == len(rows)
    expected = np.array(rows, dtype=np.float64)
    assert same_bits(run.array, expected)
    for j, name in enumerate(header):
        assert same_bits(run[name], expected[:, j])


def test_views_of_a_run():
    run = nl.load("chaplygin_sleigh").run(2, dt_out=0.5)
    assert run.system == "chaplygin_sleigh"
    assert run.columns[0] == "t"
    assert list(run.t) == [0, 0.5, 1.0, 1.5, 2.0]
    as_dict = run.as_dict()
    assert list(as_dict) == run.columns
    assert np.array_equal(as_dict["omega"], run.omega)
    records = run.to_records()
    assert records.dtype.names == tuple(run.columns)
    assert np.array_equal(records.theta, run["theta"])
    assert run.array.shape == (len(run), len(run.columns))
    assert "energy" in run and "nonsense" not in run
    with pytest.raises(KeyError, match="no column 'nonsense'"):
        run["nonsense"]
    with pytest.raises(AttributeError):
        run.nonsense


def test_scenario_file_brings_its_own_settings(nhsim, tmp_path):
    scenario = tmp_path / "sleigh.json"
    nhsim("run", "chaplygin_sleigh", "--t-end", "1.5", "--dt-out", "0.25", "--set", "m=2",
          "--save-scenario", str(scenario), "--quiet", "--out", str(tmp_path / "x.csv"))
    system = nl.load(scenario)
    assert system.parameters["m"] == 2
    header, rows = parse_csv(nhsim("run", str(scenario)).stdout)
    run = system.run()
    assert run.columns == header
    assert same_bits(run.array, np.array(rows))
