# The threads a distributed run reports are the threads that could run: mpiexec -n 2
# --bind-to BIND searchbench run --engine mpi --threads 2 --json must report the fewest
# CPUs any rank's affinity mask holds under that binding (as nproc counts them in a job
# started the same way), at most 2; and rank 0 warns once, naming --bind-to none, exactly
# when that is fewer than 2.
#   cmake -D MPI_EXE=searchbench-mpi -D MPIEXEC=mpiexec -D BIND=core [-D EXPECT_THREADS=1] -P check_threads.cmake
execute_process(COMMAND timeout -k 5 30 ${MPIEXEC} -n 2 --bind-to ${BIND} nproc
                OUTPUT_VARIABLE cpus RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "mpiexec -n 2 --bind-to ${BIND} nproc failed (${rc}): ${err}")
endif()
string(REGEX MATCHALL "[0-9]+" cpus "${cpus}")
set(could 2)
foreach(n IN LISTS cpus)
  if(n LESS could)
    set(could ${n})
  endif()
endforeach()
if(DEFINED EXPECT_THREADS AND NOT could EQUAL EXPECT_THREADS)
  message(FATAL_ERROR "under --bind-to ${BIND} a rank holds ${could} CPUs (nproc: ${cpus}), expected ${EXPECT_THREADS}: "
                      "this machine binds differently from the one the test was written for")
endif()
execute_process(COMMAND timeout -k 5 30 ${MPIEXEC} -n 2 --bind-to ${BIND} ${MPI_EXE} run --puzzle msquare-2x4 --engine mpi
                        --threads 2 --json --quiet
                OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the run failed (${rc}):\n${out}\n${err}")
endif()
string(JSON threads GET "${out}" threads)
string(JSON requested GET "${out}" threads_requested)
if(NOT threads EQUAL could)
  message(FATAL_ERROR "under --bind-to ${BIND} the JSON says \"threads\": ${threads}, but ${could} could run "
                      "(nproc in each rank: ${cpus})\nstderr:\n${err}")
endif()
if(NOT requested EQUAL 2)
  message(FATAL_ERROR "\"threads_requested\": ${requested}, expected 2")
endif()
string(REGEX MATCHALL "searchbench: warning: [^\n;]*threads asked for" warnings "${err}")
list(LENGTH warnings count)
string(REGEX MATCH "searchbench: warning: [^\n]*" warning "${err}")
string(FIND "${warning}" "--bind-to none" names_it)
if(count EQUAL 1 AND names_it EQUAL -1)
  message(FATAL_ERROR "the warning does not name --bind-to none:\n${warning}")
endif()
if(could LESS 2 AND NOT count EQUAL 1)
  message(FATAL_ERROR "expected one warning naming --bind-to none on stderr, found ${count}:\n${err}")
endif()
if(could EQUAL 2 AND NOT count EQUAL 0)
  message(FATAL_ERROR "a warning although every thread could run:\n${err}")
endif()
string(FIND "${err}" "TBB Warning" at)
if(NOT at EQUAL -1)
  message(FATAL_ERROR "oneTBB was asked for more workers than it may run:\n${err}")
endif()
message(STATUS "--bind-to ${BIND}: \"threads\": ${threads} of 2 requested (nproc per rank: ${cpus}) ${warning}")
