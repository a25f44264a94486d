# SPDX-License-Identifier: GPL-3.0-or-later
# Writes OUTPUT: a C++ file holding each of FILES as a raw string literal.
set(body "")
foreach(f IN LISTS FILES)
  get_filename_component(name ${f} NAME)
  file(READ ${f} text)
  string(FIND "${text}" ")nhmodel\"" clash)
  if(NOT clash EQUAL -1)
    message(FATAL_ERROR "${f} contains the delimiter )nhmodel\"")
  endif()
  string(APPEND body "      {\"${name}\", R\"nhmodel(${text})nhmodel\"},\n")
endforeach()
file(WRITE ${OUTPUT}.tmp
"// Generated from resources/systems/*.yaml by embed_models.cmake. Do not edit.
#include \"resources/systems/bundled_models.h\"

namespace nh {

const std::vector<std::pair<std::string, std::string>>& bundledModelTexts() {
  static const std::vector<std::pair<std::string, std::string>> files = {
${body}  };
  return files;
}

}  // namespace nh
")
file(COPY_FILE ${OUTPUT}.tmp ${OUTPUT} ONLY_IF_DIFFERENT)
