// The web engine a live page carries (app/web, built by the wasm preset): its loader script
// and its WebAssembly module, read from the folder the build or the package put them in.
#pragma once

#include <string>

namespace nhui {

struct WebEngineFiles {
  std::string script;  // nhweb.js: the module's loader (a factory named nhEngine)
  std::string wasm;    // nhweb.wasm: the module's bytes
};

// The folder looked in: NH_WEB_ENGINE_DIR when set, else the build's (build/wasm/bin beside
// the release build) when it holds the engine, else the installed one
// (share/nonholonomic-lab/web beside the program's bin folder).
std::string webEngineFolder();
// Whether webEngineFolder() holds both files.
bool webEngineAvailable();
// Reads both files; throws nh::InputError in one line naming the folder and how to build the
// engine when either is missing.
WebEngineFiles readWebEngine();

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
