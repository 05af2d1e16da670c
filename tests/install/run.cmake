# Installs the built project into a scratch prefix (the one install the consumer test then
# builds against) and checks what landed there with check_install.py.
# Variables: BUILD_DIR, PREFIX, PYTHON, CHECK.
file(REMOVE_RECURSE ${PREFIX})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${PREFIX} RESULT_VARIABLE rc OUTPUT_QUIET)
if(rc)
  message(FATAL_ERROR "cmake --install ${BUILD_DIR} --prefix ${PREFIX} failed")
endif()
execute_process(COMMAND ${PYTHON} ${CHECK} --prefix ${PREFIX} RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "the installed files are not as they should be")
endif()
