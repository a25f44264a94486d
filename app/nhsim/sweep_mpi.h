// `mpirun -n P nhsim sweep … --mpi`: the runs of one study shared by P MPI ranks.
//
// Every rank parses the same words and builds the same Study (run i is a pure function of i,
// core/study/sweep.h). Rank 0 hands out chunks of run indices on request, guided: a chunk is
// the runs left over twice the number of workers, between 1 and 256 runs, so that chunks
// shrink toward the end and no worker is left with a long tail. Every rank, rank 0 included,
// computes on --jobs threads (default 1 per rank); a worker sends its finished rows (the
// values and the status, packed, not text) with its next request. Rank 0's main thread
// answers requests, puts rows in run order and writes them through the same SweepRecorder as
// the threaded sweep, so the file has the same bytes as `nhsim sweep … --jobs 1`.
//
// Only rank 0's main thread and the workers of the other ranks call MPI (each request and its
// answer under one lock): MPI_THREAD_FUNNELED with one thread per rank, MPI_THREAD_SERIALIZED
// with more; a smaller level granted by the library is refused with one line.
//
// Bad input (on every rank alike, or only on some: a file missing on one node) ends every
// rank with exit 2 after one collective check, nothing written; the message is rank 0's,
// or the rank's that alone saw it. A write error on rank 0 prints one line, removes the
// temporary and calls MPI_Abort. SIGINT, SIGTERM or SIGHUP on any rank (mpirun forwards
// SIGINT and SIGTERM to all of them) stops the study: rank 0 keeps the finished prefix, ends
// the file with "# partial: N of M runs" and exits 128 + the signal.
#pragma once

namespace nh::cli {

// Initializes MPI, runs the sweep of argv on this rank, finalizes MPI; the exit code.
int sweepMpiCommand(int argc, char** argv);

}  // namespace nh::cli
// SPDX-License-Identifier: GPL-3.0-or-later
