# SPDX-License-Identifier: MIT
#
# ctest smoke test of fastsha-bench: a one-rep run at 64 bytes exits 0 and
# prints a row for every backend that `--list` says this CPU runs (so a new
# backend is covered without editing this file). Run as
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
string(REPLACE "\n" ";" lines "${list}")
set(n 0)
foreach(line IN LISTS lines)
  if(line MATCHES "^([A-Za-z0-9_]+) +runs")
    set(name ${CMAKE_MATCH_1})
    math(EXPR n "${n} + 1")
    if(NOT out MATCHES "(^|\n)${name} +64 ")
      message(FATAL_ERROR "no row for backend ${name}")
    endif()
  endif()
endforeach()
if(n EQUAL 0)
  message(FATAL_ERROR "--list shows no backend this CPU runs")
endif()
message("rows for all ${n} backends this CPU runs")
