// Scenario files: JSON holding exactly the settings of a run (nh::Scenario), with a format
// version. Shared by nhsim and nhlab.
#pragma once

#include <QByteArray>
#include <QString>

#include "nh/scenario.h"

namespace nh {

inline constexpr int kScenarioFormatVersion = 1;

// Throws InputError with a message naming the file and what is wrong with it.
Scenario parseScenarioJson(const QByteArray& json, const QString& origin);
Scenario readScenarioFile(const QString& path);

QByteArray scenarioToJson(const Scenario& scenario);
// Writes through QSaveFile: a failure never leaves a truncated file. Throws Error.
void writeScenarioFile(const Scenario& scenario, const QString& path);

// The scenario with every parameter and every state variable spelled out (defaults and
// completed velocities included), so that the run is reproduced exactly.
Scenario resolvedScenario(const Scenario& scenario, const std::vector<double>& parameters,
                          const std::vector<double>& initialState);

}  // namespace nh
