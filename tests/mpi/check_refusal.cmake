# One refusal test: `searchbench ARGS` under mpiexec with NP ranks must end (no rank left
# waiting), exit non-zero and say EXPECT on stderr. ARGS separates arguments with "|".
#   cmake -D MPI_EXE=searchbench-mpi -D MPIEXEC=mpiexec -D NP=2 "-D ARGS=run|--engine|mpi|--encoder|bitpack" -D EXPECT=text -P check_refusal.cmake
string(REPLACE "|" ";" ARGS "${ARGS}")
execute_process(COMMAND ${MPIEXEC} -n ${NP} ${MPI_EXE} ${ARGS} OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(rc EQUAL 0)
  message(FATAL_ERROR "expected a refusal, got success:\n${out}")
endif()
string(FIND "${err}" "${EXPECT}" at)
if(at EQUAL -1)
  message(FATAL_ERROR "stderr does not say '${EXPECT}':\n${err}")
endif()
