# One mismatch test: an MPI job whose ranks were started with different arguments
# (mpiexec -n NP0 searchbench ARGS0 : -n NP1 searchbench ARGS1) must end within seconds on
# every rank with status 2, rank 0 saying once on stderr which options differ, and no rank
# crashing or left waiting. ARGS0, ARGS1 and EXPECT (texts stderr must hold) separate their
# items with "|".
#   cmake -D MPI_EXE=searchbench-mpi -D MPIEXEC=mpiexec "-D ARGS0=run|--puzzle|msquare-2x4" "-D ARGS1=run|--puzzle|msquare-2x5"
#         [-D NP0=1] [-D NP1=1] "-D EXPECT=rank 0: --puzzle msquare-2x4|rank 1: --puzzle msquare-2x5" -P check_mismatch.cmake
foreach(np NP0 NP1)
  if(NOT ${np})
    set(${np} 1)
  endif()
endforeach()
string(REPLACE "|" ";" ARGS0 "${ARGS0}")
string(REPLACE "|" ";" ARGS1 "${ARGS1}")
string(REPLACE "|" ";" EXPECT "${EXPECT}")
string(TIMESTAMP began "%s")
# timeout(1) rather than execute_process's TIMEOUT, so that a hang ends mpiexec (which ends
# its ranks) and shows as status 124.
execute_process(COMMAND timeout -k 5 30 ${MPIEXEC} -n ${NP0} ${MPI_EXE} ${ARGS0} : -n ${NP1} ${MPI_EXE} ${ARGS1}
                OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
string(TIMESTAMP ended "%s")
math(EXPR took "${ended} - ${began}")
if(rc EQUAL 124 OR rc EQUAL 137)
  message(FATAL_ERROR "the job hung: killed after ${took} s\nstdout:\n${out}\nstderr:\n${err}")
endif()
if(NOT rc EQUAL 2)
  message(FATAL_ERROR "expected exit status 2, got ${rc} after ${took} s\nstdout:\n${out}\nstderr:\n${err}")
endif()
foreach(bad "Segmentation fault" "signal" "MPI_ABORT" "internal error")
  string(FIND "${err}" "${bad}" at)
  if(NOT at EQUAL -1)
    message(FATAL_ERROR "stderr says '${bad}':\n${err}")
  endif()
endforeach()
# Counted by a text without ";" (CMake would split a list element at one).
string(REGEX MATCHALL "were started with different arguments \\(" lines "${err}")
list(LENGTH lines count)
if(NOT count EQUAL 1)
  message(FATAL_ERROR "expected the line 'searchbench: the ranks of this MPI job were started with different arguments (...' "
                      "once on stderr, found it ${count} times:\n${err}")
endif()
string(REGEX MATCH "searchbench: the ranks of this MPI job were started with different arguments \\([^\n]*" line "${err}")
foreach(text IN LISTS EXPECT)
  string(FIND "${line}" "${text}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "the line does not say '${text}':\n${line}")
  endif()
endforeach()
if(NOT out STREQUAL "")
  message(FATAL_ERROR "a rank printed a result:\n${out}")
endif()
message(STATUS "status 2 after ${took} s: ${line}")
