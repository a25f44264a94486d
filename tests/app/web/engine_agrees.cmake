# SPDX-License-Identifier: GPL-3.0-or-later
# The web engine agrees with the desktop: engine_test runs every system with dynamics in
# WebAssembly (at its defaults, and edited at t = 2 s) and writes each scenario it ran; the
# desktop's nhsim runs the same scenarios; engine_test compares the rows (≤ 1e-10 relative).
# cmake -DNODE=node -DTEST=web_engine_test.js -DNHSIM=nhsim -DDIR=folder -P engine_agrees.cmake
file(REMOVE_RECURSE ${DIR})
execute_process(COMMAND ${NODE} --no-experimental-fetch ${TEST} run ${DIR}
                COMMAND_ERROR_IS_FATAL ANY)
file(GLOB scenarios ${DIR}/*.json)
list(LENGTH scenarios count)
if(count LESS 20)
  message(FATAL_ERROR "the engine ran ${count} scenarios; every system with dynamics expected")
endif()
foreach(scenario ${scenarios})
  string(REGEX REPLACE "\\.json$" ".native.csv" native ${scenario})
  execute_process(COMMAND ${NHSIM} run ${scenario} --out ${native} --quiet
                  COMMAND_ERROR_IS_FATAL ANY)
endforeach()
execute_process(COMMAND ${NODE} --no-experimental-fetch ${TEST} compare ${DIR}
                COMMAND_ERROR_IS_FATAL ANY)
