// The display choices: which arrows a choice shows.
#include "ui/session/display_choices.h"

namespace nhui {

bool DisplayChoices::shows(nh::ArrowKind kind) const {
  switch (kind) {
    case nh::ArrowKind::Reaction:
    case nh::ArrowKind::Force:
      return reactionArrows;
    case nh::ArrowKind::Velocity:
      return velocityArrows;
    case nh::ArrowKind::AngularVelocity:
      return angularVelocityArrows;
  }
  return false;
}

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
