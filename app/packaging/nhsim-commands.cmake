# SPDX-License-Identifier: GPL-3.0-or-later
# Writes OUTPUT, a help2man include file for nhsim(1): the SYNOPSIS, the usage lines at the end
# of `nhsim --help`, and a section COMMANDS with the help of each command (`nhsim COMMAND
# --help`, the commands as `nhsim --help` lists them), verbatim.
# Usage: cmake -DNHSIM=path/to/nhsim -DOUTPUT=file -P nhsim-commands.cmake

# The commands: the words of `nhsim --help` under "Subcommands:", one per line.
execute_process(COMMAND ${NHSIM} --help OUTPUT_VARIABLE help COMMAND_ERROR_IS_FATAL ANY)
string(REGEX REPLACE ".*\nSubcommands:\n" "" listing "${help}")
string(REGEX REPLACE "\n\n.*" "" listing "${listing}")
string(REGEX MATCHALL "(^|\n)  [a-z]+" commands "${listing}")
if(NOT commands)
  message(FATAL_ERROR "no commands found in '${NHSIM} --help'")
endif()

# The usage lines at the end of `nhsim --help`, verbatim.
string(REGEX REPLACE ".*\nusage: " "" usage "${help}")
string(REGEX REPLACE "(^|\n)       " "\\1" usage "${usage}")
string(REPLACE "\\" "\\e" usage "${usage}")
set(text "[SYNOPSIS]\n.nf\n${usage}.fi\n\n[COMMANDS]\n")
foreach(command IN LISTS commands)
  string(STRIP "${command}" command)
  execute_process(COMMAND ${NHSIM} ${command} --help OUTPUT_VARIABLE page
                  COMMAND_ERROR_IS_FATAL ANY)
  # roff: a backslash is \e; a line starting with a period or quote is not a request.
  string(REPLACE "\\" "\\e" page "${page}")
  string(REGEX REPLACE "(^|\n)([.'])" "\\1\\\\&\\2" page "${page}")
  string(APPEND text ".SS \"nhsim ${command}\"\n.nf\n${page}.fi\n")
endforeach()
file(WRITE ${OUTPUT} "${text}")
