// The catalogue of systems (catalogue.h): the C++ systems, the bundled model files (compiled
// in, loaded on first use), the user's model folder and the session's typed-in systems, listed
// in one order and found by name or path, with the problems met while loading them.
#include "core/model/catalogue.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <mutex>

#include "core/model/model_archive.h"
#include "core/model/model_file.h"
#include "core/nh/errors.h"
#include "core/nh/read_file.h"
#include "resources/systems/bundled_models.h"

namespace nh {

// Defined in core/systems/*.cpp: the systems a model file cannot state (see the README).
std::shared_ptr<const SystemModel> makeCentralForce();
std::shared_ptr<const SystemModel> makeWhippleBicycle();

namespace {

namespace fs = std::filesystem;

struct Registry {
  std::mutex mutex;
  bool builtInLoaded = false;
  std::vector<CatalogueEntry> builtIn;  // C++ systems (with their twins' text) and bundled models
  // The C++ systems, made once; bundled model files loaded one by one as they are asked
  // for (a program that runs one system loads one file).
  std::vector<std::shared_ptr<const SystemModel>> cpp;
  std::map<std::string, std::shared_ptr<const SystemModel>> bundledByName;
  bool userLoaded = false;
  std::vector<CatalogueEntry> user;
  std::vector<std::string> problems;
  // The user model files that failed to load, by file name without its extension (the name
  // a user types): their error, shown instead of "unknown system".
  std::map<std::string, std::string> failedByStem;
  std::vector<CatalogueEntry> session;
  // Model files loaded by path, by their text (a file edited on disk is loaded anew).
  std::map<std::string, std::pair<std::string, std::shared_ptr<const SystemModel>>> files;
};

Registry& registry() {
  static Registry r;
  return r;
}

// The rest of the top-level line `key:` of a model file, spaces trimmed, or "" if none.
std::string topLevelValue(const std::string& text, const std::string& key) {
  const std::string label = key + ":";
  size_t at = 0;
  while ((at = text.find(label, at)) != std::string::npos) {
    if (at == 0 || text[at - 1] == '\n') {
      size_t b = at + label.size(), e = text.find('\n', b);
      if (e == std::string::npos) e = text.size();
      while (b < e && text[b] == ' ') ++b;
      while (e > b && (text[e - 1] == ' ' || text[e - 1] == '\r')) --e;
      return text.substr(b, e - b);
    }
    at += label.size();
  }
  return "";
}

std::string nameInText(const std::string& text) {
  // The `name:` line of a model file, without loading it (for twins).
  const std::string value = topLevelValue(text, "name");
  size_t b = 0;
  while (b < value.size() && (value[b] == '"' || value[b] == '\'')) ++b;
  size_t e = b;
  while (e < value.size() &&
         (std::isalnum(static_cast<unsigned char>(value[e])) || value[e] == '_'))
    ++e;
  return value.substr(b, e - b);
}

// The `title:` of a model file when written plainly on its line (no quotes, block or
// comment), without loading it; "" otherwise.
std::string plainTitleInText(const std::string& text) {
  const std::string value = topLevelValue(text, "title");
  if (value.empty() || std::string("\"'>|&*!%@`{[").find(value[0]) != std::string::npos ||
      value.find(" #") != std::string::npos || value.find(": ") != std::string::npos)
    return "";
  return value;
}

const std::vector<std::shared_ptr<const SystemModel>>& cppSystems(Registry& r) {
  if (r.cpp.empty()) r.cpp = {makeCentralForce(), makeWhippleBicycle()};
  return r.cpp;
}

// A bundled model file as compiled ahead at build time (model_archive.h); loaded from its
// text only if the build compiled no archive of it.
std::shared_ptr<const SystemModel> loadBundled(const std::string& file, const std::string& text) {
  for (const model::CompiledModel& compiled : model::compiledModels())
    if (compiled.file == file) return model::unarchiveModel(compiled.archive);
  return model::loadModelText(text, "resources/systems/" + file);
}

// The bundled model file named `name` (not a C++ system's twin), loaded once; null if none.
std::shared_ptr<const SystemModel> bundledSystem(Registry& r, const std::string& name) {
  if (auto it = r.bundledByName.find(name); it != r.bundledByName.end()) return it->second;
  for (const auto& s : cppSystems(r))
    if (s->name() == name) return nullptr;
  for (const auto& [file, text] : bundledModelFiles()) {
    if (nameInText(text) != name) continue;
    // A bundled file that does not load is a build defect: the tests load every one.
    auto system = loadBundled(file, text);
    r.bundledByName[name] = system;
    return system;
  }
  return nullptr;
}

// The classics first, in the order of the README's table; the other bundled files after.
int listingRank(const std::string& name) {
  static const char* const kOrder[] = {"ball_on_turntable", "ball_on_table", "nh_particle",
                                       "central_force",     "rigid_body",    "rolling_disk",
                                       "chaplygin_sleigh"};
  for (int i = 0; i < 7; ++i)
    if (name == kOrder[i]) return i;
  return 7;
}

// The names of the C++ systems and of the bundled model files, without loading the files.
std::vector<std::string> builtInNames(Registry& r) {
  std::vector<std::string> names;
  for (const auto& s : cppSystems(r)) names.push_back(s->name());
  for (const auto& [file, text] : bundledModelFiles()) names.push_back(nameInText(text));
  return names;
}

void loadBuiltIn(Registry& r) {
  if (r.builtInLoaded) return;
  for (const auto& s : cppSystems(r)) r.builtIn.push_back({s, SystemOrigin::BuiltIn, "", ""});
  for (const auto& [file, text] : bundledModelFiles()) {
    const std::string name = nameInText(text);
    auto twin = std::find_if(r.builtIn.begin(), r.builtIn.end(),
                             [&](const CatalogueEntry& e) { return e.system->name() == name; });
    if (twin != r.builtIn.end()) {
      twin->modelText = text;  // a C++ system's model file: for "duplicate and edit"
      continue;
    }
    r.builtIn.push_back({bundledSystem(r, name), SystemOrigin::BuiltInModel, "", text});
  }
  std::stable_sort(r.builtIn.begin(), r.builtIn.end(),
                   [](const CatalogueEntry& a, const CatalogueEntry& b) {
                     return listingRank(a.system->name()) < listingRank(b.system->name());
                   });
  r.builtInLoaded = true;
}

void loadUser(Registry& r) {
  if (r.userLoaded) return;
  r.user.clear();
  r.problems.clear();
  r.failedByStem.clear();
  r.userLoaded = true;
  const std::string folder = userModelFolder();
  std::error_code ec;
  if (!fs::is_directory(folder, ec)) return;
  std::vector<fs::path> paths;
  for (const auto& entry : fs::directory_iterator(folder, ec)) {
    const std::string ext = entry.path().extension().string();
    if (ext == ".yaml" || ext == ".yml") paths.push_back(entry.path());
  }
  std::sort(paths.begin(), paths.end());
  const std::vector<std::string> builtIn = builtInNames(r);
  for (const auto& p : paths) {
    try {
      auto system = model::loadModelFile(p.string());
      const std::string& name = system->name();
      const bool taken = std::find(builtIn.begin(), builtIn.end(), name) != builtIn.end() ||
                         std::any_of(r.user.begin(), r.user.end(), [&](const CatalogueEntry& e) {
                           return e.system->name() == name;
                         });
      if (taken) {
        r.problems.push_back(p.string() + ": the name '" + name +
                             "' is taken by another system; skipped (rename it)");
        continue;
      }
      r.user.push_back({system, SystemOrigin::UserModel, p.string(), system->text()});
    } catch (const Error& e) {
      r.problems.push_back(e.what());
      r.failedByStem.emplace(p.stem().string(), e.what());
    }
  }
}

const std::string& nameOf(const CatalogueEntry& e) { return e.system->name(); }
const std::string& nameOf(const CatalogueLine& l) { return l.name; }

// Adds this session's systems to `all`: an edited system replaces the one it came from.
template <class Line, class Make>
void addSession(const Registry& r, std::vector<Line>& all, Make make) {
  for (const auto& s : r.session) {
    auto same = std::find_if(all.begin(), all.end(),
                             [&](const Line& e) { return nameOf(e) == s.system->name(); });
    if (same != all.end())
      *same = make(s);
    else
      all.push_back(make(s));
  }
}

std::vector<CatalogueEntry> allEntries(Registry& r) {
  loadBuiltIn(r);
  loadUser(r);
  std::vector<CatalogueEntry> all = r.builtIn;
  all.insert(all.end(), r.user.begin(), r.user.end());
  addSession(r, all, [](const CatalogueEntry& e) { return e; });
  return all;
}

CatalogueLine lineOf(const CatalogueEntry& e) {
  return {e.system->name(), e.origin, e.system->info().title};
}

}  // namespace

std::vector<CatalogueEntry> catalogueEntries() {
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  return allEntries(r);
}

std::vector<CatalogueLine> catalogueListing() {
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  std::vector<CatalogueLine> lines;
  for (const auto& s : cppSystems(r))
    lines.push_back({s->name(), SystemOrigin::BuiltIn, s->info().title});
  const size_t cppCount = lines.size();
  for (const auto& [file, text] : bundledModelFiles()) {
    const std::string name = nameInText(text);
    const auto first = lines.begin(), last = lines.begin() + static_cast<long>(cppCount);
    if (std::any_of(first, last, [&](const CatalogueLine& l) { return l.name == name; }))
      continue;  // a C++ system's twin
    std::string title = plainTitleInText(text);
    if (title.empty()) title = bundledSystem(r, name)->info().title;
    lines.push_back({name, SystemOrigin::BuiltInModel, title});
  }
  std::stable_sort(lines.begin(), lines.end(), [](const CatalogueLine& a, const CatalogueLine& b) {
    return listingRank(a.name) < listingRank(b.name);
  });
  loadUser(r);
  for (const auto& e : r.user) lines.push_back(lineOf(e));
  addSession(r, lines, lineOf);
  return lines;
}

std::vector<std::shared_ptr<const SystemModel>> catalogue() {
  std::vector<std::shared_ptr<const SystemModel>> systems;
  for (const auto& e : catalogueEntries()) systems.push_back(e.system);
  return systems;
}

std::vector<std::string> catalogueProblems() {
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  loadUser(r);
  return r.problems;
}

std::shared_ptr<const SystemModel> findSystem(const std::string& nameOrPath,
                                              const std::string& baseFolder) {
  Registry& r = registry();
  const bool path = nameOrPath.find('/') != std::string::npos || model::isModelFilePath(nameOrPath);
  if (path) {
    fs::path p(nameOrPath);
    if (p.is_relative() && !baseFolder.empty()) p = fs::path(baseFolder) / p;
    const std::string text = readRegularFile(p.string(), "model file");
    {
      std::lock_guard lock(r.mutex);
      auto it = r.files.find(p.string());
      if (it != r.files.end() && it->second.first == text) return it->second.second;
    }
    auto system = model::loadModelText(text, p.string(), p.string());
    std::lock_guard lock(r.mutex);
    r.files[p.string()] = {text, system};
    return system;
  }
  std::lock_guard lock(r.mutex);
  // This session's edits, then C++ and bundled systems without loading the others.
  for (const auto& e : r.session)
    if (e.system->name() == nameOrPath) return e.system;
  for (const auto& s : cppSystems(r))
    if (s->name() == nameOrPath) return s;
  if (auto s = bundledSystem(r, nameOrPath)) return s;
  std::string known;
  for (const auto& e : allEntries(r)) {
    if (e.system->name() == nameOrPath) return e.system;
    known += (known.empty() ? "" : ", ") + e.system->name();
  }
  // A model file of the user's folder by that name did not load: its error, not "unknown".
  if (const auto failed = r.failedByStem.find(nameOrPath); failed != r.failedByStem.end())
    throw InputError(failed->second);
  throw InputError("unknown system '" + nameOrPath + "' (known systems: " + known +
                   "; or give a model file, NAME.yaml)");
}

CatalogueEntry catalogueEntry(const SystemModel& system) {
  for (const auto& e : catalogueEntries())
    if (e.system.get() == &system) return e;
  // Not listed (a file opened by path, say): its own text when it has one.
  CatalogueEntry e;
  if (const auto* f = model::asFormula(system)) {
    e.origin = SystemOrigin::File;
    e.path = f->path();
    e.modelText = f->text();
  }
  for (const auto& c : catalogueEntries())
    if (c.system->name() == system.name() && e.modelText.empty()) e.modelText = c.modelText;
  return e;
}

std::string userModelFolder() {
  if (const char* p = std::getenv("NH_SYSTEMS_PATH"); p && *p) return p;
  if (const char* x = std::getenv("XDG_DATA_HOME"); x && *x)
    return std::string(x) + "/nonholonomic-lab/systems";
  const char* home = std::getenv("HOME");
  return std::string(home ? home : ".") + "/.local/share/nonholonomic-lab/systems";
}

void reloadUserModels() {
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  r.userLoaded = false;
}

void registerSessionSystem(std::shared_ptr<const SystemModel> system) {
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  for (auto& e : r.session)
    if (e.system->name() == system->name()) {
      e.system = std::move(system);
      if (const auto* f = model::asFormula(*e.system)) e.modelText = f->text();
      return;
    }
  CatalogueEntry e{system, SystemOrigin::Session, "", ""};
  if (const auto* f = model::asFormula(*system)) {
    e.modelText = f->text();
    e.path = f->path();
  }
  r.session.push_back(std::move(e));
}

const std::vector<std::pair<std::string, std::string>>& bundledModelFiles() {
  return bundledModelTexts();
}

}  // namespace nh
// SPDX-License-Identifier: GPL-3.0-or-later
