# cmake -P: the .def file and the MSVC import library of chesscore.dll, from the DLL's own
# export table (so the .def lists exactly what the DLL exports: every chess_* function of
# include/chesscore.h; scripts/cross-windows compares the two).
#
#   cmake -DOBJDUMP=... -DDLLTOOL=... -DDLL=chesscore.dll -DDEF=chesscore.def -DLIB=chesscore.lib
#         -P cmake/chesscore-importlib.cmake
#
# DLLTOOL is llvm-dlltool (preferred: it writes the short import format MSVC's link.exe writes)
# or x86_64-w64-mingw32-dlltool.
foreach(v OBJDUMP DLLTOOL DLL DEF LIB)
  if(NOT DEFINED ${v} OR "${${v}}" STREQUAL "")
    message(FATAL_ERROR "chesscore-importlib.cmake: -D${v}=... is missing")
  endif()
endforeach()

execute_process(COMMAND "${OBJDUMP}" -p "${DLL}" OUTPUT_VARIABLE dump RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "${OBJDUMP} -p ${DLL} failed")
endif()
# The export name table: "[Ordinal/Name Pointer] Table" then lines "\t[   N] name".
string(FIND "${dump}" "[Ordinal/Name Pointer] Table" at)
if(at EQUAL -1)
  message(FATAL_ERROR "${DLL} has no export name table")
endif()
string(SUBSTRING "${dump}" ${at} -1 dump)
string(REGEX MATCHALL "\n[ \t]*\\[[ 0-9]+\\] [A-Za-z_][A-Za-z0-9_]*" rows "${dump}")
set(names)
foreach(row IN LISTS rows)
  string(REGEX REPLACE ".*\\] " "" name "${row}")
  list(APPEND names "${name}")
endforeach()
list(LENGTH names count)
if(count EQUAL 0)
  message(FATAL_ERROR "no exports found in ${DLL}")
endif()

get_filename_component(dll_name "${DLL}" NAME)
set(text "LIBRARY ${dll_name}\nEXPORTS\n")
foreach(name IN LISTS names)
  string(APPEND text "    ${name}\n")
endforeach()
file(WRITE "${DEF}.tmp" "${text}")
execute_process(COMMAND "${CMAKE_COMMAND}" -E copy_if_different "${DEF}.tmp" "${DEF}")
file(REMOVE "${DEF}.tmp")

get_filename_component(tool "${DLLTOOL}" NAME)
if(tool MATCHES "llvm-dlltool")
  set(args -m i386:x86-64 -d "${DEF}" -l "${LIB}")
else()
  set(args -m i386:x86-64 -d "${DEF}" -D "${dll_name}" -l "${LIB}")
endif()
execute_process(COMMAND "${DLLTOOL}" ${args} RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "${DLLTOOL} ${args} failed")
endif()
