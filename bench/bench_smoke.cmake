# SPDX-License-Identifier: MIT
#
# ctest smoke test of fastsha-bench: a one-rep run at 64 bytes exits 0,
# prints a table for each default algorithm (SHA-1, SHA-256, SHA-512), and
# in each table a row for every backend that `--list` says this CPU runs
# (so a new backend is covered without editing this file). Run as
#   cmake -DBENCH=/path/to/fastsha-bench -P bench_smoke.cmake

execute_process(COMMAND ${BENCH} --list RESULT_VARIABLE rc OUTPUT_VARIABLE list)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "fastsha-bench --list exited ${rc}")
endif()
execute_process(COMMAND ${BENCH} --quick --reps 1 --sample-ms 1 --sizes 64
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}${err}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "fastsha-bench --quick exited ${rc}")
endif()

# A table starts with "<alg>: " on a line of its own and ends at a blank line.
function(table_of alg result)
  string(FIND "${out}" "\n${alg}: " at)
  if(at EQUAL -1)
    message(FATAL_ERROR "no table for ${alg}")
  endif()
  math(EXPR at "${at} + 1")
  string(SUBSTRING "${out}" ${at} -1 rest)
  string(FIND "${rest}" "\n\n" end)
  string(SUBSTRING "${rest}" 0 ${end} table)
  set(${result} "${table}" PARENT_SCOPE)
endfunction()

foreach(alg sha1 sha256 sha512)
  if(NOT list MATCHES "(^|\n)${alg} ")
    message(FATAL_ERROR "--list shows no ${alg} backends")
  endif()
endforeach()
string(REPLACE "\n" ";" lines "${list}")
set(n 0)
foreach(line IN LISTS lines)
  if(line MATCHES "^([a-z0-9_]+) +([A-Za-z0-9_]+) +runs")
    set(alg ${CMAKE_MATCH_1})
    set(name ${CMAKE_MATCH_2})
    math(EXPR n "${n} + 1")
    table_of(${alg} table)
    if(NOT table MATCHES "\n${name} +64 ")
      message(FATAL_ERROR "no ${alg} row for backend ${name}")
    endif()
  endif()
endforeach()
if(n EQUAL 0)
  message(FATAL_ERROR "--list shows no backend this CPU runs")
endif()
message("rows for all ${n} backends this CPU runs, in the sha1, sha256 and sha512 tables")
