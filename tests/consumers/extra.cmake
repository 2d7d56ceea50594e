# Injected by scripts/consumers into each consumer project
# (-DCMAKE_PROJECT_quickstart_INCLUDE=...) and run at the end of its CMakeLists.txt: strict warnings on the project's own programs, the
# other two program/library pairs, and the header compiled alone as C89 and C++98 with
# -pedantic-errors, so that each way of consuming chesscore builds all of them.
cmake_minimum_required(VERSION 3.19)  # cmake_language(DEFER)
set(chesscore_consumer_dir "${CMAKE_CURRENT_LIST_DIR}")
function(chesscore_consumer_extras)
  set(dir "${chesscore_consumer_dir}")
  set(warnings -Wall -Wextra -pedantic-errors -Werror)
  add_executable(quickstart_static "${dir}/quickstart.c")
  target_link_libraries(quickstart_static PRIVATE chesscore::chesscore_static)
  add_executable(quickstart_cpp_shared "${dir}/quickstart.cpp")
  target_link_libraries(quickstart_cpp_shared PRIVATE chesscore::chesscore)
  foreach(t quickstart quickstart_static)
    set_target_properties(${t} PROPERTIES C_STANDARD 99 C_STANDARD_REQUIRED ON C_EXTENSIONS OFF)
    target_compile_options(${t} PRIVATE ${warnings})
  endforeach()
  foreach(t quickstart_cpp quickstart_cpp_shared)
    set_target_properties(${t} PROPERTIES CXX_STANDARD 11 CXX_STANDARD_REQUIRED ON
                                          CXX_EXTENSIONS OFF)
    target_compile_options(${t} PRIVATE ${warnings})
  endforeach()
  add_library(header_c89 OBJECT "${dir}/header_c89.c")
  target_link_libraries(header_c89 PRIVATE chesscore::chesscore)
  set_target_properties(header_c89 PROPERTIES C_STANDARD 90 C_STANDARD_REQUIRED ON
                                              C_EXTENSIONS OFF)
  target_compile_options(header_c89 PRIVATE ${warnings})
  add_library(header_cpp98 OBJECT "${dir}/header_cpp98.cpp")
  target_link_libraries(header_cpp98 PRIVATE chesscore::chesscore)
  set_target_properties(header_cpp98 PROPERTIES CXX_STANDARD 98 CXX_STANDARD_REQUIRED ON
                                                CXX_EXTENSIONS OFF)
  target_compile_options(header_cpp98 PRIVATE ${warnings})
endfunction()
cmake_language(DEFER DIRECTORY "${CMAKE_SOURCE_DIR}" CALL chesscore_consumer_extras)
