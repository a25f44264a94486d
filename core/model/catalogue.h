// The systems Nonholonomic Lab knows: those written in C++ (core/systems/), the model files
// shipped in resources/systems/ (compiled in), the model files in the user's data folder,
// and systems typed in during this session (the app's editor).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/nh/system.h"

namespace nh {

enum class SystemOrigin { BuiltIn, BuiltInModel, UserModel, Session, File };

struct CatalogueEntry {
  std::shared_ptr<const SystemModel> system;
  SystemOrigin origin = SystemOrigin::BuiltIn;
  std::string path;       // the model file (UserModel, File); "" otherwise
  std::string modelText;  // its model file's text (for C++ systems: the twin's); "" if none
};

// All known systems, in the order shown to users: built-in ones first, then the user's
// model files by name, then systems typed in this session.
std::vector<CatalogueEntry> catalogueEntries();
// What `nhsim list` shows of catalogueEntries(), in its order, without loading the bundled
// model files (their `name:` and `title:` lines are read): user model files are loaded.
struct CatalogueLine {
  std::string name;
  SystemOrigin origin = SystemOrigin::BuiltIn;
  std::string title;
};
std::vector<CatalogueLine> catalogueListing();
// The systems of catalogueEntries().
std::vector<std::shared_ptr<const SystemModel>> catalogue();
// Model files in the user's folder that could not be loaded, one message each.
std::vector<std::string> catalogueProblems();

// The system named `nameOrPath`: a catalogue name, or a model file path (relative paths
// resolved against `baseFolder` when not empty). Throws InputError naming the known
// systems, or model::ModelError for a bad model file.
std::shared_ptr<const SystemModel> findSystem(const std::string& nameOrPath,
                                              const std::string& baseFolder = "");
// The catalogue entry of a system (origin, model text), found by name.
CatalogueEntry catalogueEntry(const SystemModel& system);

// $XDG_DATA_HOME/nonholonomic-lab/systems (default ~/.local/share/...), where user model
// files are looked for; NH_SYSTEMS_PATH, when set, replaces it (tests).
std::string userModelFolder();
// Reads the user's folder again (after the app saved a file there, say).
void reloadUserModels();
// Adds or replaces a system typed in this session (by name); findSystem then finds it.
void registerSessionSystem(std::shared_ptr<const SystemModel> system);

// The model files compiled in from resources/systems/: (file name, text).
const std::vector<std::pair<std::string, std::string>>& bundledModelFiles();

}  // namespace nh
// SPDX-License-Identifier: GPL-3.0-or-later
