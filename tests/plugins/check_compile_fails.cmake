# Compiles SOURCE with -DCASE=<n> for n in CASES and checks that each fails with a message
# that matches the regular expression EXPECT_<n>, and that CASE 0 compiles:
#   cmake -D CXX=c++ -D SOURCE=file.cpp -D ROOT=<source tree> -D "CASES=1;2" -D "EXPECT_1=..." -P check_compile_fails.cmake
set(flags -std=c++20 -fsyntax-only -I${ROOT})
execute_process(COMMAND ${CXX} ${flags} -DCASE=0 ${SOURCE} RESULT_VARIABLE status ERROR_VARIABLE err OUTPUT_VARIABLE out)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "the engine spelled right (CASE 0) does not compile:\n${err}")
endif()
foreach(n ${CASES})
  execute_process(COMMAND ${CXX} ${flags} -DCASE=${n} ${SOURCE} RESULT_VARIABLE status ERROR_VARIABLE err OUTPUT_VARIABLE out)
  if(status EQUAL 0)
    message(FATAL_ERROR "CASE ${n} compiled; it must be refused")
  endif()
  if(NOT err MATCHES "${EXPECT_${n}}")
    message(FATAL_ERROR "CASE ${n} failed without saying '${EXPECT_${n}}':\n${err}")
  endif()
  message(STATUS "CASE ${n} refused: ${CMAKE_MATCH_0}")
endforeach()
