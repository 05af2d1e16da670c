# The Debian packages (README "Installing the Debian package"): `cpack -G DEB` in the build
# directory, or `cmake --build build --target package`, makes
#   collide_VERSION_ARCH.deb      the program, its man page and bash completion (component runtime)
#   collide-dev_VERSION_ARCH.deb  the static library, its headers and CMake package (component dev)
# tests/package/test_deb.sh builds them, runs lintian and uses what they hold.
# Included by the top CMakeLists.txt after lib/ and cli/, when collide is the top project.
include(GNUInstallDirs)

set(COLLIDE_MAINTAINER "Seed 472b235a maintainers <maintainers@users.noreply.a-seed-472b235a.example>")

# Each package has a copyright file and a changelog in /usr/share/doc/PACKAGE, gzipped as Debian
# wants (-n: no name or time stamp, so the same build gives the same bytes). The version has no
# Debian revision: a native package, whose changelog is changelog.gz. The date is the configure
# time's, or SOURCE_DATE_EPOCH's when set. Package only (EXCLUDE_FROM_ALL): `cmake --install`
# leaves them out.
string(TIMESTAMP COLLIDE_CHANGELOG_DATE "%a, %d %b %Y %H:%M:%S +0000" UTC)
set(COLLIDE_DEB_DIR ${PROJECT_BINARY_DIR}/debian)
configure_file(${CMAKE_CURRENT_LIST_DIR}/debian/changelog.in ${COLLIDE_DEB_DIR}/changelog @ONLY)
execute_process(COMMAND gzip -9nf ${COLLIDE_DEB_DIR}/changelog RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "gzip -9n ${COLLIDE_DEB_DIR}/changelog failed")
endif()
foreach(component IN ITEMS runtime dev)
  set(package collide)
  if(component STREQUAL "dev")
    set(package collide-dev)
  endif()
  install(FILES ${CMAKE_CURRENT_LIST_DIR}/debian/copyright ${COLLIDE_DEB_DIR}/changelog.gz
          DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/${package} COMPONENT ${component} EXCLUDE_FROM_ALL)
endforeach()

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME collide)
set(CPACK_PACKAGE_VENDOR "collide")
set(CPACK_PACKAGE_CONTACT ${COLLIDE_MAINTAINER})
set(CPACK_DEBIAN_PACKAGE_MAINTAINER ${COLLIDE_MAINTAINER})
set(CPACK_STRIP_FILES ON)
set(CPACK_INSTALL_DEFAULT_DIRECTORY_PERMISSIONS
    OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
set(CPACK_DEB_COMPONENT_INSTALL ON)
# The uncompressed man page of `cmake --install` is component man, which no package holds.
set(CPACK_COMPONENTS_ALL runtime dev)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # collide_0.1.0_amd64.deb
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
# Each package's description below opens with its own synopsis; CPack would put the project's
# DESCRIPTION in front of both when this is not empty.
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)  # dpkg-shlibdeps (dpkg-dev) names the shared libraries
set(CPACK_DEBIAN_ENABLE_COMPONENT_DEPENDS ON)  # collide-dev: Depends collide (= VERSION)

set(CPACK_DEBIAN_RUNTIME_PACKAGE_NAME collide)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_RUNTIME_DESCRIPTION "batch collision checker for 2D game data
collide reads scenes of 2D shapes (JSON, or Tiled and LDtk maps read
directly), tests the pairs they name with exact geometry, and writes a
report of every collision, touch, near pair, rule and move as JSON, JSON
Lines, CSV or text. It answers movement queries on tile grids, checks
rules (pickups are not inside walls, bullets hit nothing static), and
gates level data in CI with gcc, GitHub, SARIF and JUnit output. The
report never depends on the broad phase or on the number of threads.
.
This package holds the collide program, its man page and its bash
completion.")

set(CPACK_DEBIAN_DEV_PACKAGE_NAME collide-dev)
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION libdevel)
set(CPACK_COMPONENT_DEV_DEPENDS runtime)
# What collideConfig.cmake finds (find_dependency, pkg-config): a static libcollide links them
# into the program that uses it.
set(CPACK_DEBIAN_DEV_PACKAGE_DEPENDS
    "libpugixml-dev, zlib1g-dev, libzstd-dev, libdeflate-dev, pkgconf | pkg-config")
set(CPACK_DEBIAN_DEV_DESCRIPTION "batch collision checker for 2D game data (development files)
collide tests the shapes of 2D game scenes and level-editor maps (Tiled,
LDtk) against each other with exact geometry: circles, rects, segments,
polygons, capsules, oriented boxes, ellipses, compound shapes and tile
grids, with intersection points, distances, separations and moves.
.
This package holds the static library libcollide, its C++17 headers and
its CMake package: find_package(collide) and link collide::collide.")

include(CPack)
