# searchbench_add_core(<target> <family list header> [ENGINE_LIST <header>] [MPI])
#
# The library: header-only techniques plus the registry that instantiates every combination,
# one translation unit per family of the family list (searchbench_family_units below), so
# the families compile in parallel and one family's change rebuilds one unit.
# The default build makes searchbench_core from registry/families.hpp and
# registry/engines.hpp; the test tree's plug-in test makes another from lists of its own
# (paths relative to the source tree, passed to the registry as SEARCHBENCH_FAMILY_LIST and
# SEARCHBENCH_ENGINE_LIST). MPI: the list has the mpi engine, so the library links MPI
# (searchbench-mpi's core; searchbench's own never does).
function(searchbench_add_core target family_list)
  cmake_parse_arguments(ARG "MPI" "ENGINE_LIST" "" ${ARGN})
  searchbench_family_units(${target} ${family_list} family_sources)
  searchbench_shipped_definitions(shipped_source)
  add_library(${target} ${PROJECT_SOURCE_DIR}/registry/registry.cpp ${family_sources}
              ${PROJECT_SOURCE_DIR}/puzzles/permutation_definition.cpp ${PROJECT_SOURCE_DIR}/puzzles/tws_reader.cpp
              ${PROJECT_SOURCE_DIR}/puzzles/kpuzzle_reader.cpp ${PROJECT_SOURCE_DIR}/puzzles/definition_puzzle.cpp
              ${PROJECT_SOURCE_DIR}/encoders/definition_coordinate.cpp ${shipped_source})
  target_include_directories(${target} PUBLIC
    $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}>
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}/searchbench>)
  # registry.cpp's family_units.hpp, the check that the units and the list agree.
  target_include_directories(${target} PRIVATE ${CMAKE_CURRENT_BINARY_DIR}/${target})
  target_compile_features(${target} PUBLIC cxx_std_20)
  target_link_libraries(${target} PUBLIC TBB::tbb nlohmann_json::nlohmann_json)
  if(ARG_MPI)
    target_link_libraries(${target} PUBLIC MPI::MPI_CXX)
    target_compile_definitions(${target} PUBLIC SEARCHBENCH_HAVE_MPI)
  endif()
  if(NOT family_list STREQUAL "registry/families.hpp")
    target_compile_definitions(${target} PUBLIC SEARCHBENCH_FAMILY_LIST="${family_list}")
  endif()
  if(ARG_ENGINE_LIST)
    target_compile_definitions(${target} PUBLIC SEARCHBENCH_ENGINE_LIST="${ARG_ENGINE_LIST}")
  endif()
endfunction()

# searchbench_family_units(<target> <family list header> <out var>)
#
# The family list's translation units, one per family: family_<Type>.cpp in
# <binary dir>/<target>/ instantiates make_family_solver and make_family_puzzle for that
# family type and includes its family header alone (with registry/family_solvers.hpp), so
# that changing one family's headers rebuilds its unit only. A unit is named by its family's
# type, not its place in the list, so that a family added anywhere in the list adds one unit
# and leaves the others as they are (file(CONFIGURE) rewrites a file only when its text
# changes).
# The list is read as registry/families.hpp writes it: `= FamilyList<` then one family type
# to a line (a `//` comment allowed), ending `>;`; each type's header is the one among the
# list's #includes that declares `using <Type> =`. Anything else is a configure error naming
# the line. The list is a configure dependency (a family added reconfigures); the family
# headers are not, since a type is renamed in the list as well.
# <target>/family_units.hpp, which registry.cpp includes after the list, asserts that the
# list is the families with a unit, in the same order, so that a family the reading above
# missed (or a unit for a family the list does not have) is a compile error in the registry,
# not an undefined symbol at link time (or, for the stray unit, nothing at all).
function(searchbench_family_units target family_list out)
  file(READ ${PROJECT_SOURCE_DIR}/${family_list} text)
  if(NOT text MATCHES "= *FamilyList<([^;]*)>;")
    message(FATAL_ERROR "${family_list}: no `= FamilyList<...>;`, the family list")
  endif()
  string(REPLACE "\n" ";" lines "${CMAKE_MATCH_1}")
  string(REGEX MATCHALL "#include \"[^\"]+\"" includes "${text}")
  list(TRANSFORM includes REPLACE "#include \"([^\"]+)\"" "\\1")
  set(dir ${CMAKE_CURRENT_BINARY_DIR}/${target})
  set(types)
  set(sources)
  foreach(line IN LISTS lines)
    string(REGEX REPLACE "//.*" "" type "${line}")
    string(STRIP "${type}" type)
    string(REGEX REPLACE " *,$" "" type "${type}")
    if(type STREQUAL "")
      continue()
    endif()
    if(NOT type MATCHES "^[A-Za-z_][A-Za-z0-9_:]*$")
      message(FATAL_ERROR "${family_list}: `${line}` is not one family type: list each family's type on a line "
                          "of its own, and define it in its family header")
    endif()
    if(type IN_LIST types)
      message(FATAL_ERROR "${family_list}: ${type} is listed twice")
    endif()
    string(REGEX REPLACE ".*::" "" name "${type}")
    set(header "")
    foreach(include IN LISTS includes)
      if(EXISTS ${PROJECT_SOURCE_DIR}/${include})
        file(READ ${PROJECT_SOURCE_DIR}/${include} header_text)
        if(header_text MATCHES "using +${name} +=")
          set(header ${include})
        endif()
      endif()
    endforeach()
    if(header STREQUAL "")
      message(FATAL_ERROR "${family_list}: no header it #includes declares `using ${name} =`, the family ${type}")
    endif()
    string(REPLACE "::" "_" unit "${type}")
    set(source ${dir}/family_${unit}.cpp)
    file(CONFIGURE OUTPUT ${source} CONTENT [[
// Generated by cmake/searchbench_core.cmake: the solvers and puzzle services of @type@, a
// family of @family_list@, compiled with its family header alone.
#include "@header@"
#include "registry/family_solvers.hpp"

namespace searchbench {
template std::unique_ptr<Solver> make_family_solver<@type@>(const @type@::Puzzle&, const SolverConfig&);
template std::unique_ptr<PuzzleInstance> make_family_puzzle<@type@>(const @type@::Puzzle&, const PuzzleConfig&);
}  // namespace searchbench
]] @ONLY)
    list(APPEND types ${type})
    list(APPEND sources ${source})
  endforeach()
  list(JOIN types ", " type_list)
  file(CONFIGURE OUTPUT ${dir}/family_units.hpp CONTENT [[
// Generated by cmake/searchbench_core.cmake: the families that have a translation unit of
// their own (family_<Type>.cpp beside this file), checked against @family_list@.
#pragma once

#include <type_traits>

namespace searchbench {
static_assert(std::is_same_v<AllFamilies, FamilyList<@type_list@>>,
              "cmake/searchbench_core.cmake read @family_list@ as FamilyList<@type_list@>: keep one family type to a line");
}  // namespace searchbench
]] @ONLY)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/${family_list})
  set(${out} ${sources} PARENT_SCOPE)
endfunction()

# searchbench_shipped_definitions(<out var>)
#
# The definition files of puzzles/definitions/ compiled into the library, so that
# `--puzzle 2x2x2.tws` finds the shipped file wherever the command runs (a file of that name
# in the working folder comes first). Regenerated when a file is added, removed or changed.
function(searchbench_shipped_definitions out)
  set(source ${CMAKE_BINARY_DIR}/generated/shipped_definitions.cpp)
  file(GLOB files CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/puzzles/definitions/*.tws ${PROJECT_SOURCE_DIR}/puzzles/definitions/*.json)
  list(SORT files)
  set(entries "")
  foreach(f ${files})
    file(READ ${f} text)
    get_filename_component(name ${f} NAME)
    string(APPEND entries "    {\"${name}\", R\"searchbench(${text})searchbench\"},\n")
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${f})
  endforeach()
  file(CONFIGURE OUTPUT ${source} CONTENT [[
// Generated by cmake/searchbench_core.cmake from puzzles/definitions/: the shipped definitions.
#include "puzzles/permutation_definition.hpp"

namespace searchbench {
const std::vector<ShippedDefinition>& shipped_definitions() {
  static const std::vector<ShippedDefinition> list{
@entries@  };
  return list;
}
}  // namespace searchbench
]] @ONLY)
  set(${out} ${source} PARENT_SCOPE)
endfunction()
