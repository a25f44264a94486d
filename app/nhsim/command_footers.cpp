// What the options of run, export, sweep and optimize mean together: the end of each one's
// --help (CommandRow::footer), and in nhsim(1) under COMMANDS.
#include "app/nhsim/command_footers.h"

#include "core/nh/integrators.h"
#include "core/nh/jacobi_fields.h"
#include "core/nh/named_choice.h"

namespace nh::cli {

// The integrators named from their rows (core/nh/integrators.h).
std::string runFooter() {
  return "\nrtol must be below 0.1 and atol below 1; the step of a fixed-step integrator\n(" +
         joined(integratorNames(&IntegratorRow::fixedStep)) +
         ") may not exceed dt-out.\n"
         "A run whose equations conserve energy but whose energy changed by more than 1 % gets a\n"
         "warning on standard error (tighten the tolerance). A non-finite state, energy or\n"
         "multiplier stops the run (exit 3, the column named); at t = 0 it is refused (exit 2, no\n"
         "file). The integrators that step the whole state (" +
         joined(integratorNames(&IntegratorRow::wholeState)) +
         ")\n"
         "stop (exit 3, with the time) where their Newton iteration fails; those that keep the\n"
         "energy (" +
         joined(integratorNames(&IntegratorRow::conservesEnergy)) +
         ") refuse (exit 2) what they cannot conserve it on.\n"
         "SIGINT, SIGTERM or SIGHUP keep the rows written so far, each complete, end the file "
         "with\n"
         "'# partial: interrupted at t = T …' and exit 130, 143 or 129.\n"
         "With --sensitivity NAME the columns d<column>/d<NAME> follow, for each state column:\n"
         "the variational equations integrated with the run (" +
         joined(variationalIntegrators()) +
         "; nonholonomic\n"
         "dynamics), NAME an initial value (the start moved as the run makes it consistent) or\n"
         "a parameter of a model without holonomic constraints.\n";
}

std::string lyapunovFooter() {
  return "\nThe exponents are those of the motion on its constraint manifold: K orthonormal\n"
         "fields in its tangent space integrated with the run (" +
         joined(variationalIntegrators()) +
         "),\n"
         "projected onto the tangent space and factored S = QR every dt-out (the estimate:\n"
         "the sum of log|R_ii| over t), re-orthonormalised where their sizes part by 1e6;\n"
         "K at most the manifold's dimension. Printed at the first sample from T/2 on and at\n"
         "T, to show convergence.\n";
}

std::string exportFooter() {
  return "Renders the 3D view (optionally with plots beside it) at fixed simulated times:\n"
         "frame i shows t = T0 + i*S/F, and the clip has round((T - T0)*F/S) frames, so it plays\n"
         "(T - T0)/S seconds. Defaults: 1280x720, 30 fps, T0 = 0, T = the scenario's t_end (10 "
         "s),\n"
         "S = 1 (simulated seconds per video second: 0.25 slow motion, 4 time-lapse), trails of\n"
         "10 s, force arrows and the time/parameter overlay on. The resolved scenario is written\n"
         "next to the output (clip.mp4 -> clip.mp4.json, DIR.json for frames) so that the export "
         "is\n"
         "reproducible; it never replaces the input scenario, and replaces an existing file that "
         "an\n"
         "earlier export to the same output did not write only with --force.\n"
         "SIGINT, SIGTERM or SIGHUP stop the export and remove its temporary (exit 130, 143, "
         "129).\n"
         "Works without a display: with DISPLAY unset a private Xvfb is started and stopped.\n"
         "With --html the export writes one self-contained page instead (three.js and the samples\n"
         "inlined, no network): the 3D scene with an orbit camera, play/pause, speed, a time "
         "slider\n"
         "and the plots (those of --plot-path and --plot, else a lesson's), with a lesson's note;\n"
         "it needs no display and refuses --width, --height and --no-overlay.\n";
}

std::string sweepFooter() {
  return "\nEach run integrates as 'nhsim run' does; its row holds the varied values, the "
         "measures\n"
         "and a status (ok, blow-up at t=T, singular point at t=T, non-regular at t=T,\n"
         "failed at t=T: ..., error: ...). A non-finite state, energy or multiplier is a blow-up.\n"
         "A failing run is a row, never the end of the sweep.\n"
         "\n"
         "--vary axes form a grid (their product; the first axis varies slowest), N values from\n"
         "FROM to TO (FROM < TO; N = 1 takes FROM). --sample draws each run's values from a\n"
         "generator keyed by (seed, run, axis): run i gets the same values whatever --jobs is.\n"
         "NAME is a parameter, else a state variable (its initial value; see 'nhsim info').\n"
         "\n"
         "A measure is an expression in the model-file syntax over final(E), initial(E), min(E),\n"
         "max(E), mean(E) (time average, trapezoid) and first_crossing(E) (first time E changes\n"
         "sign, interpolated; nan if never), E an expression of the columns 'nhsim run' writes:\n"
         "  --measure 'reversal=first_crossing(w3)' --measure 'max(abs(lambda_1))'\n"
         "\n"
         "Output: CSV with '#' comment lines (command, system, axes, measures), a header, one\n"
         "row per run in run order: the same bytes for any --jobs. More than 10^7 runs need\n"
         "--force. Ctrl+C keeps the finished rows and ends the file with '# partial: N of M "
         "runs'.\n"
         "Progress (runs done, runs/s, time left) goes to standard error unless --quiet.\n"
         "\n"
         "HDF5 (--out FILE.h5 or --format hdf5; a regular file, not - or a device): a 2-D\n"
         "dataset 'values' (one row per run: the varied values, the measures), 'columns' (their\n"
         "names), 'status', and the comment lines as attributes.\n"
         "\n"
         "--mpi: 'mpirun -n P nhsim sweep ... --mpi' shares the runs among P ranks (rank 0 too)\n"
         "in chunks handed out on request, each rank on --jobs threads (default 1 per rank);\n"
         "rank 0 writes the same bytes as without --mpi.\n";
}

std::string optimizeFooter() {
  return "\nExtremals of the action ∫₀ᵀ L dt from the start (--init, else the model's) to the\n"
         "targets at T. A control model (controls, control_section, cost) gives Pontryagin's\n"
         "equations on its algebroid; any other system the vakonomic problem (admissible curves,\n"
         "Φ = 0), whose unknowns are the free initial velocities and μ(0). Coordinates not\n"
         "targeted are free at T (transversality); a quaternion is targeted by its four\n"
         "components. Multiple shooting, Newton on exact sensitivities; --starts N tries the\n"
         "plain start and N-1 random costates (--seed); distinct extremals are kept.\n"
         "\n"
         "Output: the lowest-cost extremal as CSV ('#' lines, then t, coordinates, velocities,\n"
         "controls and costates xi_<velocity>, or mu_<i> when vakonomic, and the running cost).\n"
         "--json prints every extremal, by cost, as JSON on standard output; with --out FILE the\n"
         "CSV is written too (--json with --out - is refused: both would be standard output).\n"
         "An extremal that is no minimum (Legendre's condition fails: a cost concave in the\n"
         "controls) gets a warning. Exit 0 when an extremal meets --tol (default 1e-10), 3 when\n"
         "none does (no output file), 2 for bad input (a cost not finite at the start, an\n"
         "output that cannot be written: checked before the solve). SIGINT, SIGTERM or SIGHUP\n"
         "end it at once with no output file and exit 130, 143 or 129.\n";
}

}  // namespace nh::cli
// SPDX-License-Identifier: GPL-3.0-or-later
