# The mpi engine honours --bottom-up-ratio and --top-down as the parallel engine does (one
# rule for both, should_go_bottom_up in engines/two_bit/level_loop.hpp). A bottom-up level
# generates parents, not successors, so `generated` shows which levels ran bottom-up,
# without timing anything. Under mpiexec with NP ranks, for --top-down, the default ratio,
# --bottom-up-ratio 1000000 (only a level with no unseen states left goes bottom-up) and
# --bottom-up-ratio 0.5 (bottom-up sooner):
# * each run generates exactly what the parallel engine generates with the same options
#   (the same direction at every level) and gives its depth counts;
# * the default goes bottom-up somewhere (it generates other than --top-down), and both
#   other ratios generate other than the default: an engine that ignored the ratio would
#   generate the default's count at every ratio.
#   cmake -D EXE=searchbench -D MPI_EXE=searchbench-mpi -D MPIEXEC=mpiexec -D NP=2 -D PUZZLE=msquare-2x5 -P check_bottom_up_ratio.cmake
function(run_engine out_var engine exe launcher)
  execute_process(COMMAND ${launcher} ${exe} run --puzzle ${PUZZLE} --engine ${engine} --json --quiet ${ARGN}
                  OUTPUT_VARIABLE out RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${engine} on ${PUZZLE} (${ARGN}) failed (${rc}): ${err}")
  endif()
  string(STRIP "${out}" out)
  string(FIND "${out}" "\n" newline)
  if(NOT newline EQUAL -1)
    message(FATAL_ERROR "more than one rank printed:\n${out}")
  endif()
  set(${out_var} "${out}" PARENT_SCOPE)
endfunction()

set(mpi ${MPIEXEC} -n ${NP})
set(cases top_down default huge half)
set(top_down_args --top-down)
set(huge_args --bottom-up-ratio 1000000)
set(default_args "")
set(half_args --bottom-up-ratio 0.5)
foreach(c ${cases})
  run_engine(mpi_${c} mpi ${MPI_EXE} "${mpi}" ${${c}_args})
  run_engine(parallel_${c} parallel ${EXE} "" --threads 2 ${${c}_args})
  string(JSON mpi_${c}_generated GET "${mpi_${c}}" generated)
  string(JSON parallel_${c}_generated GET "${parallel_${c}}" generated)
  string(JSON mpi_counts GET "${mpi_${c}}" depth_counts)
  string(JSON parallel_counts GET "${parallel_${c}}" depth_counts)
  if(NOT mpi_counts STREQUAL parallel_counts)
    message(FATAL_ERROR "depth counts differ (${c}, ${NP} ranks):\n  mpi      ${mpi_counts}\n  parallel ${parallel_counts}")
  endif()
  if(NOT mpi_${c}_generated EQUAL parallel_${c}_generated)
    message(FATAL_ERROR "mpi generated ${mpi_${c}_generated} states (${c}, ${NP} ranks), the parallel engine "
                        "${parallel_${c}_generated}: the two chose different directions for some level")
  endif()
endforeach()
if(mpi_default_generated EQUAL mpi_top_down_generated)
  message(FATAL_ERROR "at the default ratio no level of ${PUZZLE} went bottom-up (${mpi_default_generated} generated "
                      "either way): this check cannot tell whether the ratio is honoured")
endif()
foreach(c huge half)
  if(mpi_${c}_generated EQUAL mpi_default_generated)
    message(FATAL_ERROR "with ${${c}_args} mpi generated ${mpi_${c}_generated} states, as at the default ratio: "
                        "the ratio was not honoured")
  endif()
endforeach()
message(STATUS "${PUZZLE}, ${NP} ranks, generated as the parallel engine: ${mpi_top_down_generated} top-down, "
               "${mpi_default_generated} at the default ratio, ${mpi_huge_generated} at 1000000, ${mpi_half_generated} at 0.5")
