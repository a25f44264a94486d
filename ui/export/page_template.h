// The pieces every exported HTML file is made of: a bundled resource read as text, text made
// safe inside HTML, and a template whose @NAME@ markers are filled with parts. The interactive
// page and the lessons' index are written with them.
#pragma once

#include <map>
#include <string>
#include <string_view>

namespace nhui {

// The bytes of the Qt resource `path` (":/page/…"); throws nh::InputError(kPageUnavailable)
// when the build does not bundle it.
std::string resourceText(const char* path);

// `text` with & < > " written as entities: safe as element text and inside a quoted attribute.
std::string htmlEscaped(std::string_view text);

// `page` with each @NAME@ whose NAME is a key of `parts` replaced by its part (the parts are
// not searched again); any other '@' is kept.
std::string filledTemplate(const std::string& page,
                           const std::map<std::string, std::string>& parts);

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
