# SPDX-License-Identifier: GPL-3.0-or-later
# Bad input raises ValueError with nhsim's one-line message (what nhsim prints after
# "nhsim: error: ", exit 2); a failed simulation raises SimulationError (exit 3); nothing is
# left half-done: the system still runs afterwards.
import time

import pytest

from conftest import nl

CASES = [
    # (Python call on the sleigh, nhsim words after "run chaplygin_sleigh")
    (lambda s: s.run(set={"mass": 1}), ["--set", "mass=1"]),
    (lambda s: s.run(set={"m": -1}), ["--set", "m=-1"]),
    (lambda s: s.run(set={"m": "heavy"}), ["--set", "m=heavy"]),
    (lambda s: s.run(set={"m": float("inf")}), ["--set", "m=inf"]),
    (lambda s: s.run(init={"spin": 1}), ["--init", "spin=1"]),
    (lambda s: s.run(-1), ["--t-end", "-1"]),
    (lambda s: s.run(1, dt_out=0), ["--t-end", "1", "--dt-out", "0"]),
    (lambda s: s.run(integrator="euler"), ["--integrator", "euler"]),
    (lambda s: s.run(integrator="rk4"), ["--integrator", "rk4"]),
    (lambda s: s.run(rtol=0.5), ["--rtol", "0.5"]),
    (lambda s: s.run(dynamics="magic"), ["--dynamics", "magic"]),
    (lambda s: s.run(formulation="lagrange"), ["--formulation", "lagrange"]),
    (lambda s: s.run(max_steps=0), ["--max-steps", "0"]),
    (lambda s: s.run(sensitivity=["v", "speed"]), ["--sensitivity", "v", "--sensitivity", "speed"]),
    (lambda s: s.run(sensitivity="v", integrator="bdf"),
     ["--sensitivity", "v", "--integrator", "bdf"]),
]


@pytest.mark.parametrize("call,words", CASES)
def test_bad_run_input_raises_nhsim_message(nhsim, call, words):
    message, code = nhsim.error("run", "chaplygin_sleigh", *words)
    assert code == 2
    system = nl.load("chaplygin_sleigh")
    with pytest.raises(ValueError) as raised:
        call(system)
    assert str(raised.value) == message
    assert len(system.run(0.5, dt_out=0.1)) > 0  # the system is unharmed


SWEEP_CASES = [
    (dict(measures="final(theta)"), ["--measure", "final(theta)"]),
    (dict(vary={"a": (0.1, 0.2, 2)}, measures="final(nothing)"),
     ["--vary", "a=0.1:0.2:2", "--measure", "final(nothing)"]),
    (dict(vary={"zz": (0, 1, 2)}, measures="final(theta)"),
     ["--vary", "zz=0:1:2", "--measure", "final(theta)"]),
    (dict(vary={"a": (0.2, 0.1, 2)}, measures="final(theta)"),
     ["--vary", "a=0.2:0.1:2", "--measure", "final(theta)"]),
    (dict(sample={"a": ("uniform", 0, 1)}, measures="final(theta)"),
     ["--sample", "a=uniform:0:1", "--measure", "final(theta)"]),
    (dict(vary={"a": (0.1, 0.2, 2)}, measures="final(theta)", jobs=0),
     ["--vary", "a=0.1:0.2:2", "--measure", "final(theta)", "--jobs", "0"]),
]


@pytest.mark.parametrize("kwargs,words", SWEEP_CASES)
def test_bad_sweep_input_raises_nhsim_message(nhsim, kwargs, words):
    message, code = nhsim.error("sweep", "chaplygin_sleigh", *words)
    assert code == 2
    with pytest.raises(ValueError) as raised:
        nl.load("chaplygin_sleigh").sweep(**kwargs)
    assert str(raised.value) == message


def test_bad_names_and_files_raise_nhsim_message(nhsim, tmp_path):
    message, _ = nhsim.error("run", "no_such_system")
    with pytest.raises(ValueError) as raised:
        nl.load("no_such_system")
    assert str(raised.value) == message
    broken = tmp_path / "broken.yaml"
    broken.write_text("format: nonholonomic-lab-system\nversion: 1\nname: broken\n")
    message, _ = nhsim.error("run", str(broken))
    with pytest.raises(ValueError) as raised:
        nl.load(broken)
    assert str(raised.value) == message
    message, _ = nhsim.error("linearize", "whipple_bicycle", "--init", "v=1", "--set", "w=-1")
    with pytest.raises(ValueError) as raised:
        nl.load("whipple_bicycle").linearize(set={"w": -1}, init={"v": 1})
    assert str(raised.value) == message
    message, _ = nhsim.error("equations", "chaplygin_sleigh", "--set", "m=2")
    with pytest.raises(ValueError) as raised:
        nl.load("chaplygin_sleigh").equations(set={"m": 2})
    assert str(raised.value) == message


VIEWS = [
    # (the view part of a scenario of nh_particle, what the refusal says)
    ('{"version": 1, "compare": {"mode": "ghost", "parameter": "bogus", "value": 1}}',
     "view: the ghost's parameter 'bogus' is not a parameter of 'nh_particle'"),
    ('{"version": 1, "compare": {"mode": "integrator", "integrator": "rk4", "step": 1e6}}',
     "larger than dt-out"),
    ('{"version": 1, "compare": {"mode": "integrator", "integrator": "rk4", "step": 1e-300}}',
     "view: the comparison integrator: step must be at least 1e-12"),
    ('{"version": 1, "plan": {"t_end": 1, "targets": {"bogus": 1}}}',
     "view: 'plan.targets.bogus' is not a coordinate of 'nh_particle'"),
]


@pytest.mark.parametrize("view,says", VIEWS)
def test_a_scenarios_view_is_checked_as_nhsim_checks_it(nhsim, tmp_path, view, says):
    # A view naming what its system lacks is refused when the file is loaded, with nhsim's line
    # (the app refuses to open the file with the same words).
    path = tmp_path / "view.json"
    path.write_text('{"format": "nonholonomic-lab-scenario", "version": 2, '
                    f'"system": "nh_particle", "view": {view}}}')
    message, code = nhsim.error("run", str(path))
    assert code == 2
    with pytest.raises(ValueError) as raised:
        nl.load(path)
    assert str(raised.value) == message
    assert says in message, message


def test_wrong_types_raise_type_error():
    system = nl.load("chaplygin_sleigh")
    with pytest.raises(TypeError, match=r"set\['m'\] must be a number"):
        system.run(set={"m": [1]})
    with pytest.raises(TypeError, match="set must be a dict"):
        system.run(set=[("m", 1)])
    with pytest.raises(TypeError, match="t_end must be a number"):
        system.run(True)


def test_a_failed_simulation_raises_simulation_error(nhsim):
    words = ["--t-end", "100", "--max-steps", "50"]
    message, code = nhsim.error("run", "whipple_bicycle", *words)
    assert code == 3
    with pytest.raises(nl.SimulationError) as raised:
        nl.load("whipple_bicycle").run(100, max_steps=50)
    assert isinstance(raised.value, RuntimeError)
    assert str(raised.value) == message


def test_a_run_too_large_for_memory_is_refused_at_once():
    # 10⁸ rows of the sleigh (nhsim's row limit, which streams them to a file) would need
    # over 8 GB here (17.2 GB at its peak): refused before any step, with the size, in one line.
    system = nl.load("chaplygin_sleigh")
    start = time.monotonic()
    with pytest.raises(ValueError) as raised:
        system.run(1e5, dt_out=1e-3)
    assert time.monotonic() - start < 10
    message = str(raised.value)
    assert "GB in memory, more than the 2 GB a run may hold" in message, message
    assert "\n" not in message
    assert len(system.run(0.5, dt_out=0.1)) > 0  # the system is unharmed
