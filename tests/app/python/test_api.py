# The module's own face: the systems nhsim lists, a system's parameters, state and info as
# `nhsim info --json` gives them, its equations as `nhsim equations` prints them, and a model
# file written from Python and loaded.
import json

import numpy as np

from conftest import nl, parse_csv, same_bits

SLEIGH_AS_A_MODEL = """\
format: nonholonomic-lab-system
version: 1
name: python_sleigh
title: A sleigh written from Python
parameters:
  - {name: m, default: 1.0, unit: kg, min: 0, min_exclusive: true}
  - {name: I, default: 0.05, unit: kg·m², min: 0, min_exclusive: true}
  - {name: a, default: 0.2, unit: m}
coordinates: [x, y, theta]
velocities: [v, u, omega]
anchor:
  x: v*cos(theta) - u*sin(theta)
  y: v*sin(theta) + u*cos(theta)
  theta: omega
structure:
  - {bracket: [omega, v], equals: {u: 1}}
  - {bracket: [omega, u], equals: {v: -1}}
lagrangian: 0.5*m*(v*v + (u + a*omega)*(u + a*omega)) + 0.5*I*omega*omega
constraints:
  - u
initial: {x: 0, y: 0, theta: 0, v: 0.3, u: 0, omega: 3.0}
independent: [v, omega]
"""


def test_systems_are_those_nhsim_lists(nhsim):
    listed = [line.split()[0] for line in nhsim("list").stdout.splitlines()]
    assert nl.systems() == listed


def test_info_parameters_and_state_match_nhsim(nhsim):
    expected = json.loads(nhsim("info", "whipple_bicycle", "--json").stdout)
    system = nl.load("whipple_bicycle")
    assert system.info() == expected
    assert system.name == "whipple_bicycle"
    assert system.parameters == {p["name"]: p["default"] for p in expected["parameters"]}
    assert system.state_names == expected["state"]
    assert "whipple_bicycle" in repr(system)


def test_equations_match_nhsim(nhsim):
    system = nl.load("chaplygin_sleigh")
    assert system.equations().text == nhsim("equations", "chaplygin_sleigh").stdout
    latex = system.equations(latex=True)
    assert latex.text == nhsim("equations", "chaplygin_sleigh", "--latex").stdout
    shown = latex._repr_latex_()
    assert shown.startswith("$$\\begin{gathered}") and shown.endswith("\\end{gathered}$$")
    assert "\\begin{gather*}" not in shown and "L = " in shown
    assert system.equations()._repr_latex_() is None
    hamiltonian = nhsim("equations", "chaplygin_sleigh", "--hamiltonian").stdout
    assert system.equations(hamiltonian=True).text == hamiltonian


def test_a_model_written_from_python_loads_and_runs_as_in_nhsim(nhsim, tmp_path):
    path = tmp_path / "python_sleigh.yaml"
    path.write_text(SLEIGH_AS_A_MODEL)
    system = nl.load(path)
    assert system.name == "python_sleigh"
    assert system.parameters == {"m": 1.0, "I": 0.05, "a": 0.2}
    run = system.run(2, dt_out=0.1, set={"a": 0.3})
    header, rows = parse_csv(nhsim("run", str(path), "--t-end", "2", "--dt-out", "0.1",
                                   "--set", "a=0.3").stdout)
    assert run.columns == header
    assert same_bits(run.array, np.array(rows))
    # The same physics as the bundled sleigh.
    bundled = nl.load("chaplygin_sleigh").run(2, dt_out=0.1, set={"a": 0.3})
    assert np.allclose(run.omega, bundled.omega, rtol=1e-9, atol=1e-12)
