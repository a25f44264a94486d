#include "ui/sim/run_style.h"

#include "core/nh/scenario.h"
#include "ui/sim/simulation_controller.h"

namespace nhui {

QString runLabel(const SimulationController& c, int run) {
  if (run != 0 && !c.comparison()) return {};
  if (c.compareMode() != CompareMode::Ghost) {
    const RunHistory* h = run == 0 ? &c.primary() : c.comparison();
    return QString::fromStdString(nh::toString(h->dynamics()));
  }
  const std::string& name = c.ghostParameter();
  const int i = c.system().parameterIndex(name);
  const double value = run == 0 && i >= 0 ? c.parameters()[i] : c.ghostValue();
  return QStringLiteral("%1 = %2").arg(QString::fromStdString(name),
                                       QString::fromStdString(nh::formatValue(value)));
}

}  // namespace nhui
