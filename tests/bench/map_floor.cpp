// map_floor: the floor of the map import benchmark (issue 14): the least a program reading a
// TMX map with a base64 + zlib tile layer must do, with the libraries collide uses (pugixml, zlib).
//
//   map_floor MAP.tmx
//
// Phases, each timed: read the file whole; pugixml parse (load_buffer, parse_default); find the
// first <layer> and its <data> (encoding="base64", compression="zlib" or "gzip"); base64-decode
// it (a plain table decoder that skips whitespace); inflate it into a width*height*4 buffer
// (zlib inflate, checked to give exactly that many bytes); walk every <object> of every
// <objectgroup> and read its x, y, width and height as doubles, so that touching the objects
// counts in the floor too. Nothing is checked, built or written: no grid, no shapes, no ids.
// The polygon points, the tileset and the flip bits are not looked at.
//
// Prints one line on stdout: the phase times in ms, then the cells, the objects and a checksum
// (from the decoded bytes and the object attributes, so that nothing is optimised away).
// Exit 1 with a message on stderr when the map is not what it expects.
#include <pugixml.hpp>
#include <zlib.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "floor_common.hpp"

namespace {

using namespace floor_common;

// RFC 4648 base64; whitespace skipped, '=' ends the data, anything else is an error.
std::vector<unsigned char> base64_decode(const char* s) {
    signed char value[256];
    std::memset(value, -1, sizeof value);
    const char* alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for (int i = 0; i < 64; ++i) value[static_cast<unsigned char>(alphabet[i])] = static_cast<signed char>(i);
    std::vector<unsigned char> out;
    out.reserve(std::strlen(s) / 4 * 3);
    std::uint32_t bits = 0;
    int count = 0;
    for (; *s && *s != '='; ++s) {
        const unsigned char c = static_cast<unsigned char>(*s);
        if (c == ' ' || c == '\n' || c == '\r' || c == '\t') continue;
        if (value[c] < 0) fail("bad base64");
        bits = bits << 6 | static_cast<std::uint32_t>(value[c]);
        if (++count == 4) {
            out.push_back(static_cast<unsigned char>(bits >> 16));
            out.push_back(static_cast<unsigned char>(bits >> 8));
            out.push_back(static_cast<unsigned char>(bits));
            bits = 0;
            count = 0;
        }
    }
    if (count == 2) out.push_back(static_cast<unsigned char>(bits >> 4));
    if (count == 3) {
        out.push_back(static_cast<unsigned char>(bits >> 10));
        out.push_back(static_cast<unsigned char>(bits >> 2));
    }
    return out;
}

// zlib or gzip stream (windowBits 15 + 32: either header) into exactly `size` bytes; the buffer
// is not zeroed first (inflate writes every byte of it).
std::unique_ptr<unsigned char[]> inflate_all(std::vector<unsigned char>& in, size_t size) {
    std::unique_ptr<unsigned char[]> out(new unsigned char[size]);
    z_stream z{};
    if (inflateInit2(&z, 15 + 32) != Z_OK) fail("inflateInit2");
    z.next_in = in.data();
    z.avail_in = static_cast<uInt>(in.size());
    z.next_out = out.get();
    z.avail_out = static_cast<uInt>(size);
    const int rc = inflate(&z, Z_FINISH);
    const size_t got = z.total_out;
    inflateEnd(&z);
    if (rc != Z_STREAM_END || got != size) fail("the layer does not inflate to width*height*4 bytes");
    return out;
}

}  // namespace

int main(int argc, char** argv) {
    program() = "map_floor";
    if (argc != 2) {
        std::fprintf(stderr, "usage: map_floor MAP.tmx\n");
        return 2;
    }
    const Clock::time_point start = Clock::now();
    Clock::time_point t = start;

    const std::string text = read_file(argv[1], "map");
    const double read_ms = ms_since(t);

    pugi::xml_document doc;
    const pugi::xml_parse_result parsed = doc.load_buffer(text.data(), text.size());
    if (!parsed) fail(parsed.description());
    const double parse_ms = ms_since(t);

    const pugi::xml_node map = doc.child("map");
    const pugi::xml_node layer = map.child("layer");
    const pugi::xml_node data = layer.child("data");
    if (!data || std::strcmp(data.attribute("encoding").value(), "base64") != 0) fail("no base64 <layer><data>");
    const size_t width = layer.attribute("width").as_ullong();
    const size_t height = layer.attribute("height").as_ullong();
    std::vector<unsigned char> packed = base64_decode(data.child_value());
    const double base64_ms = ms_since(t);

    const std::unique_ptr<unsigned char[]> cells = inflate_all(packed, width * height * 4);
    const double inflate_ms = ms_since(t);

    double sum = 0;
    size_t objects = 0;
    for (const pugi::xml_node group : map.children("objectgroup")) {
        for (const pugi::xml_node object : group.children("object")) {
            sum += object.attribute("x").as_double() + object.attribute("y").as_double() +
                   object.attribute("width").as_double() + object.attribute("height").as_double();
            ++objects;
        }
    }
    const double objects_ms = ms_since(t);

    // one word a row (a few thousand reads): enough to tie the output to the inflated bytes
    std::uint64_t checksum = static_cast<std::uint64_t>(sum * 100.0);
    for (size_t row = 0; row < height; ++row) {
        std::uint32_t gid = 0;
        std::memcpy(&gid, cells.get() + (row * width + row % width) * 4, 4);
        checksum = checksum * 31 + gid;
    }
    const double total_ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();

    std::printf("read_ms=%.1f parse_ms=%.1f base64_ms=%.1f inflate_ms=%.1f objects_ms=%.1f total_ms=%.1f "
                "cells=%zu inflated_bytes=%zu packed_bytes=%zu objects=%zu checksum=%llu\n",
                read_ms, parse_ms, base64_ms, inflate_ms, objects_ms, total_ms, width * height, width * height * 4,
                packed.size(), objects, static_cast<unsigned long long>(checksum));
    return 0;
}
