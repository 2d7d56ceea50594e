# Run by cmake --install on Windows builds, before the strip: the static library of the -gnu
# targets carries Rust std's split-DWARF members (*.rcgu.dwo, with no sections), on which
# mingw's strip stops. They define no symbol, so no link needs them: they are deleted, without
# rebuilding the symbol index (`d S`: that would make ar read every member's LLVM bitcode
# through the LLVM gold plugin of binutils, which prints a warning for each); the ranlib after
# the strip writes it. Inputs: chesscore_ar (the archiver) and chesscore_archive (the
# installed libchesscore.a).
execute_process(COMMAND "${chesscore_ar}" t "${chesscore_archive}"
                OUTPUT_VARIABLE chesscore_members RESULT_VARIABLE chesscore_rc)
if(chesscore_rc)
  message(FATAL_ERROR "${chesscore_ar} t ${chesscore_archive} failed")
endif()
string(REGEX MATCHALL "[^\n]+\\.dwo" chesscore_dwo "${chesscore_members}")
if(chesscore_dwo)
  execute_process(COMMAND "${chesscore_ar}" dS "${chesscore_archive}" ${chesscore_dwo}
                  RESULT_VARIABLE chesscore_rc)
  if(chesscore_rc)
    message(FATAL_ERROR "${chesscore_ar} d (the .dwo members) failed on ${chesscore_archive}")
  endif()
endif()
