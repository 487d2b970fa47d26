# SPDX-License-Identifier: MIT
#
# ctest smoke test of fastsha-bench, its two layouts (no timing assertions:
# the machine is shared and noisy). Run as
#   cmake -DBENCH=/path/to/fastsha-bench -P bench_smoke.cmake
#
# 1. The first screen (`--quick`, what `make` prints): exits 0, fits in 24
#    lines, and has one line per algorithm family (and SHA1DC), naming a
#    single-message backend this CPU runs and, for batches, a backend it
#    runs.
# 2. `--all`, one rep at 64 bytes: a table per default algorithm (SHA-1,
#    SHA-256, SHA-512) with a row for every single-message backend that
#    `--list` says this CPU runs, and every lane backend it runs in that
#    algorithm's batch table only, never among the one-message rows. A new
#    backend is covered without editing this file.

cmake_minimum_required(VERSION 3.20) # if(IN_LIST)

execute_process(COMMAND ${BENCH} --list RESULT_VARIABLE rc OUTPUT_VARIABLE list)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "fastsha-bench --list exited ${rc}")
endif()
foreach(alg sha1 sha256 sha512)
  if(NOT list MATCHES "(^|\n)${alg} ")
    message(FATAL_ERROR "--list shows no ${alg} backends")
  endif()
endforeach()

# --list: "<alg> <backend> runs <OpenSSL path>", or for a lane backend
# "<alg> <backend> runs <N> lanes: batches, ...".
set(singles "")
set(lanes "")
string(REPLACE "\n" ";" lines "${list}")
foreach(line IN LISTS lines)
  if(line MATCHES "^([a-z0-9_]+) +([A-Za-z0-9_]+) +runs +[0-9]+ lanes")
    list(APPEND lanes "${CMAKE_MATCH_1}:${CMAKE_MATCH_2}")
  elseif(line MATCHES "^([a-z0-9_]+) +([A-Za-z0-9_]+) +runs")
    list(APPEND singles "${CMAKE_MATCH_1}:${CMAKE_MATCH_2}")
  endif()
endforeach()
if(NOT singles)
  message(FATAL_ERROR "--list shows no backend this CPU runs")
endif()

# 1. The first screen.
execute_process(COMMAND ${BENCH} --quick --reps 1 --sample-ms 1
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}${err}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "fastsha-bench --quick exited ${rc}")
endif()
string(REGEX MATCHALL "\n" nl "${out}")
list(LENGTH nl nlines)
if(nlines GREATER 24)
  message(FATAL_ERROR "fastsha-bench --quick printed ${nlines} lines; the first screen is 24")
endif()
string(REPLACE "\n" ";" qlines "${out}")
foreach(alg sha1 sha256 sha512 sha1dc)
  set(found 0)
  # sha1dc shares sha1's backends; its line is marked with a footnote.
  if(alg STREQUAL "sha1dc")
    set(fam sha1)
  else()
    set(fam ${alg})
  endif()
  foreach(line IN LISTS qlines)
    if(line MATCHES "^${alg}\\*? +([A-Za-z0-9_]+) +[-0-9. ]+ +([A-Za-z0-9_]+) ")
      math(EXPR found "${found} + 1")
      if(NOT "${fam}:${CMAKE_MATCH_1}" IN_LIST singles)
        message(FATAL_ERROR "${alg}'s line names ${CMAKE_MATCH_1}, not a single-message "
          "backend this CPU runs: ${line}")
      endif()
      if(NOT "${fam}:${CMAKE_MATCH_2}" IN_LIST singles AND NOT "${fam}:${CMAKE_MATCH_2}" IN_LIST lanes)
        message(FATAL_ERROR "${alg}'s batch backend ${CMAKE_MATCH_2} is not one this CPU runs")
      endif()
    endif()
  endforeach()
  if(NOT found EQUAL 1)
    message(FATAL_ERROR "the first screen has ${found} lines for ${alg}, not one")
  endif()
endforeach()

# 2. --all.
execute_process(COMMAND ${BENCH} --all --quick --reps 1 --sample-ms 1 --sizes 64
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}${err}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "fastsha-bench --all exited ${rc}")
endif()

# A table starts with "<head>" on a line of its own and ends at a blank
# line or the end of the output.
function(table_of head result)
  string(FIND "${out}" "\n${head}" at)
  if(at EQUAL -1)
    set(${result} "" PARENT_SCOPE)
    return()
  endif()
  math(EXPR at "${at} + 1")
  string(SUBSTRING "${out}" ${at} -1 rest)
  string(FIND "${rest}" "\n\n" end)
  string(SUBSTRING "${rest}" 0 ${end} table)
  set(${result} "${table}\n" PARENT_SCOPE)
endfunction()

set(n 0)
foreach(entry IN LISTS singles lanes)
  string(REPLACE ":" ";" pair "${entry}")
  list(GET pair 0 alg)
  list(GET pair 1 name)
  if(NOT alg MATCHES "^(sha1|sha256|sha512)$")
    continue()
  endif()
  table_of("${alg}: " single)  # "sha1: SHA-1, one-shot ...", printed first
  table_of("${alg}: lane backends" batch)
  if(single STREQUAL "")
    message(FATAL_ERROR "no one-message table for ${alg}")
  endif()
  math(EXPR n "${n} + 1")
  if(entry IN_LIST lanes)
    if(single MATCHES "\n${name} +64 ")
      message(FATAL_ERROR "lane backend ${alg} ${name} timed as one message")
    endif()
    if(NOT batch MATCHES "\n${name} +[0-9]+ +64 ")
      message(FATAL_ERROR "no ${alg} batch row for lane backend ${name}")
    endif()
  else()
    if(NOT single MATCHES "\n${name} +64 ")
      message(FATAL_ERROR "no ${alg} row for backend ${name}")
    endif()
  endif()
endforeach()
message("rows for all ${n} backends this CPU runs in sha1, sha256 and sha512, "
  "lane backends as batches only")
