#include "core/nh/catalogue.h"

#include "core/nh/errors.h"

namespace nh {

// Defined in core/systems/*.cpp.
std::shared_ptr<const SystemModel> makeBallOnTurntable();
std::shared_ptr<const SystemModel> makeBallOnTable();
std::shared_ptr<const SystemModel> makeNonholonomicParticle();
std::shared_ptr<const SystemModel> makeCentralForce();
std::shared_ptr<const SystemModel> makeRigidBody();
std::shared_ptr<const SystemModel> makeRollingDisk();
std::shared_ptr<const SystemModel> makeChaplyginSleigh();

const std::vector<std::shared_ptr<const SystemModel>>& catalogue() {
  static const std::vector<std::shared_ptr<const SystemModel>> systems = {
      makeBallOnTurntable(), makeBallOnTable(), makeNonholonomicParticle(), makeCentralForce(),
      makeRigidBody(),       makeRollingDisk(), makeChaplyginSleigh()};
  return systems;
}

std::shared_ptr<const SystemModel> findSystem(const std::string& name) {
  std::string known;
  for (const auto& s : catalogue()) {
    if (s->name() == name) return s;
    known += (known.empty() ? "" : ", ") + s->name();
  }
  throw InputError("unknown system '" + name + "' (known systems: " + known + ")");
}

}  // namespace nh
