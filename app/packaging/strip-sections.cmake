# SPDX-License-Identifier: GPL-3.0-or-later
# Run by CPack (CPACK_PRE_BUILD_SCRIPTS) on the files it has installed and stripped, before it
# packs them: removes from every ELF file the sections plain strip keeps and Debian's dh_strip
# removes — .comment (the names of the compilers that built each object) and .note — as
# lintian asks (binary-has-unneeded-section).
file(GLOB_RECURSE files LIST_DIRECTORIES false "${CPACK_TEMPORARY_INSTALL_DIRECTORY}/*")
foreach(file ${files})
  if(IS_SYMLINK ${file})
    continue()
  endif()
  file(READ ${file} magic LIMIT 4 HEX)
  if(magic STREQUAL "7f454c46")  # "\x7fELF"
    execute_process(COMMAND ${CPACK_NH_OBJCOPY} --remove-section=.comment --remove-section=.note
                            ${file} RESULT_VARIABLE status ERROR_VARIABLE error)
    if(NOT status EQUAL 0)
      message(FATAL_ERROR "objcopy on ${file} failed: ${error}")
    endif()
  endif()
endforeach()
