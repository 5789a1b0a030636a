# Run at every build (the searchbench_commit target): writes OUT, the source of
# searchbench::cli::version(), naming the commit HEAD is at and "-dirty" when tracked files
# differ from it, so a build dir reused across commits never reports the commit it was
# configured at. OUT is rewritten only when its text changes: an unchanged commit
# recompiles and relinks nothing.
# Inputs: -DSOURCE_DIR=<checkout> -DOUT=<file> -DVERSION=<project version> [-DGIT=<git>].
set(commit "unknown")
if(GIT)
  execute_process(COMMAND ${GIT} rev-parse --short=12 HEAD WORKING_DIRECTORY ${SOURCE_DIR}
                  OUTPUT_VARIABLE head OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE status ERROR_QUIET)
  if(status EQUAL 0 AND head)
    set(commit "${head}")
    execute_process(COMMAND ${GIT} status --porcelain --untracked-files=no WORKING_DIRECTORY ${SOURCE_DIR}
                    OUTPUT_VARIABLE changes RESULT_VARIABLE status ERROR_QUIET)
    if(status EQUAL 0 AND NOT changes STREQUAL "")
      set(commit "${commit}-dirty")
    endif()
  endif()
endif()
# One quoted argument, where a semicolon stays a semicolon (in a list it would separate).
set(text "// Written by cmake/write_commit.cmake at build time: not to be edited.
namespace searchbench::cli {
const char* version() { return \"${VERSION} (commit ${commit})\"; }
}  // namespace searchbench::cli
")
set(old "")
if(EXISTS ${OUT})
  file(READ ${OUT} old)
endif()
if(NOT old STREQUAL text)
  file(WRITE ${OUT} "${text}")
endif()
