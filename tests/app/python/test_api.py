# SPDX-License-Identifier: GPL-3.0-or-later
# The module's own face: the systems nhsim lists, a system's parameters, state and info as
# `nhsim info --json` gives them, its equations as `nhsim equations` prints them (and shown in a
# notebook as KaTeX reads them), warnings attributed to the caller's line, a model file
# written from Python and loaded, and the loader's warnings said at load; the methods'
# keyword arguments, their signature and their help are nhsim's option table.
import inspect
import json
import re
import sys
import warnings

import numpy as np
import pytest

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
    verdict = system.info(constraints=True)["constraint_algebroid"]["verdict"]
    assert verdict.startswith("nonholonomic: [X_v, X_omega] leaves D")
    assert "constraint_algebroid" not in system.info()
    gibbs = nhsim("equations", "chaplygin_sleigh", "--gibbs-appell").stdout
    assert system.equations(gibbs_appell=True).text == gibbs


def text_arguments(latex):
    """The arguments of every \\text{...} in `latex`, up to its matching brace (escaped braces
    \\{ \\} counted as text)."""
    found = []
    at = latex.find("\\text{")
    while at >= 0:
        i, depth = at + len("\\text{"), 1
        start = i
        while depth > 0:
            if latex[i] == "\\":
                i += 2
                continue
            depth += {"{": 1, "}": -1}.get(latex[i], 0)
            i += 1
        found.append(latex[start:i - 1])
        at = latex.find("\\text{", i)
    return found


def unescaped(text):
    """The characters of `text` that TeX and KaTeX read as commands in \\text{...} (a math
    subscript, an alignment tab, a comment, ...) and that stand there without a backslash."""
    bad, i = [], 0
    while i < len(text):
        if text[i] == "\\":
            i += 2
            continue
        if text[i] in "_&%#$^~":
            bad.append(text[i])
        i += 1
    return bad


def test_latex_headings_are_text_katex_reads(tmp_path):
    # The heading names the system: chaplygin_sleigh's "_" unescaped in \text{} is an error in
    # KaTeX (a subscript outside math mode); a title with TeX's other special characters too.
    titled = SLEIGH_AS_A_MODEL.replace("title: A sleigh written from Python",
                                       'title: "Sleigh & co: 50% of #1, $2 {a}_b ~ x^2"')
    path = tmp_path / "python_sleigh.yaml"
    path.write_text(titled)
    for system in [nl.load("chaplygin_sleigh"), nl.load(path)]:
        texts = text_arguments(system.equations(latex=True)._repr_latex_())
        assert texts and system.name.replace("_", "\\_") in texts[0]
        for text in texts:
            assert unescaped(text) == [], text
    heading = text_arguments(nl.load(path).equations(latex=True)._repr_latex_())[0]
    assert heading == ("python\\_sleigh: Sleigh \\& co: 50\\% of \\#1, \\$2 \\{a\\}\\_b "
                       "\\textasciitilde{} x\\textasciicircum{}2")


def test_warnings_name_the_line_that_called():
    # A warning points at the caller's line (as warnings.warn's default does), not at "sys:1",
    # where Python puts a warning attributed one frame above the outermost one.
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        line = sys._getframe().f_lineno + 1
        nl.load("whipple_bicycle").linearize()
    assert caught and "not an equilibrium" in str(caught[0].message)
    assert (caught[0].filename, caught[0].lineno) == (__file__, line)


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


def test_a_structure_kept_against_its_anchor_warns_at_load(tmp_path):
    # A structure its anchor contradicts loads only under structure_checked: false, and then
    # every load says so, as nhsim does at every run.
    path = tmp_path / "python_sleigh.yaml"
    path.write_text(SLEIGH_AS_A_MODEL.replace("equals: {u: 1}", "equals: {u: -1}") +
                    "structure_checked: false\n")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        nl.load(path)
    assert any("contradicts the anchor" in str(w.message) for w in caught), caught


METHODS = ["run", "linearize", "sweep", "equations"]


def _help_options(help_text):
    """The options nhsim's help lists, one per line, with their help line (on the option's
    line, or on the next one under a long option)."""
    options = {}
    lines = help_text.splitlines()
    for i, line in enumerate(lines):
        match = re.match(r"^\s+(--[a-z][a-z-]*)", line)
        if match and match.group(1) not in options:  # not the examples of the footer
            parts = re.split(r"\s{2,}", line.strip(), maxsplit=1)
            options[match.group(1)] = parts[1] if len(parts) > 1 else lines[i + 1].strip()
    return options


@pytest.mark.parametrize("method", METHODS)
def test_keyword_arguments_are_the_option_table(nhsim, method):
    table = nl.keyword_arguments(method)
    names = [name for name, _, _ in table]
    assert len(names) == len(set(names)) and names
    signature = inspect.signature(getattr(nl.System, method))
    parameters = [p for p in signature.parameters.values() if p.name != "self"]
    assert sorted(p.name for p in parameters) == sorted(names)
    if method == "run":
        assert parameters[0].name == "t_end"
        assert parameters[0].kind is inspect.Parameter.POSITIONAL_OR_KEYWORD
    assert all(p.kind is inspect.Parameter.KEYWORD_ONLY for p in parameters[1:])
    # Each stands for an option that `nhsim METHOD --help` lists with the same help.
    listed = _help_options(nhsim(method, "--help").stdout)
    doc = getattr(nl.System, method).__doc__
    for name, option, help_line in table:
        assert option in listed, option
        assert " ".join(listed[option].split())[:40] == " ".join(help_line.split())[:40]
        assert f"{name} ({option}): {help_line}" in doc


def test_an_unknown_keyword_argument_names_those_taken():
    system = nl.load("chaplygin_sleigh")
    with pytest.raises(TypeError, match=r"run\(\) got an unexpected keyword argument 'tend' "
                                        r"\(it takes: .*t_end.*\)"):
        system.run(tend=1)
    with pytest.raises(TypeError, match="multiple values for argument 't_end'"):
        system.run(1, t_end=2)
    with pytest.raises(TypeError, match="takes 1 positional"):
        system.run(1, 0.1)
    with pytest.raises(TypeError, match="projection must be True or False"):
        system.run(0.1, projection=[1])
