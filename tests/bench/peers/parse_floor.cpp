// parse_floor: the parse-floor anchor for collide's benchmarks.
//
//   parse_floor [-q] FILE...
//
// Reads each file, parses it with simdjson's DOM API (one reused parser) and visits every value,
// summing every number and the lengths of every string and key, so that none of the work can be
// optimised away. Nothing is checked and nothing is written: this is about the least any program
// that reads these scenes must do, the floor collide's end-to-end time is compared with.
//
// stdout: one summary line of key=value fields. stderr (unless -q): the phases, wall and CPU ms:
//   read   padded_string::load (the file into memory)
//   parse  dom::parser::parse (structural index and tape)
//   visit  the walk over the tape
#include <simdjson.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}
// CPU time of the process (user + system), in ms: on a shared machine the steadier figure.
double cpu_ms() {
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) / 1e6;
}

struct Visit {
    double sum = 0;
    std::uint64_t numbers = 0, strings = 0, string_bytes = 0, values = 0;

    void operator()(simdjson::dom::element e) {
        ++values;
        switch (e.type()) {
        case simdjson::dom::element_type::ARRAY:
        {
            // Copied out of the simdjson_result first: a range-for over value_unsafe() of the
            // temporary would bind a reference into it.
            simdjson::dom::array a = e.get_array().value_unsafe();
            for (simdjson::dom::element v : a) (*this)(v);
            break;
        }
        case simdjson::dom::element_type::OBJECT:
        {
            simdjson::dom::object o = e.get_object().value_unsafe();
            for (simdjson::dom::key_value_pair kv : o) {
                string_bytes += kv.key.size();
                (*this)(kv.value);
            }
            break;
        }
        case simdjson::dom::element_type::INT64:
            sum += static_cast<double>(e.get_int64().value_unsafe());
            ++numbers;
            break;
        case simdjson::dom::element_type::UINT64:
            sum += static_cast<double>(e.get_uint64().value_unsafe());
            ++numbers;
            break;
        case simdjson::dom::element_type::DOUBLE:
            sum += e.get_double().value_unsafe();
            ++numbers;
            break;
        case simdjson::dom::element_type::STRING:
            ++strings;
            string_bytes += e.get_string().value_unsafe().size();
            break;
        default:
            break;
        }
    }
};

}  // namespace

int main(int argc, char** argv) {
    bool quiet = false;
    std::vector<const char*> files;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "-q") == 0) quiet = true;
        else if (std::strcmp(argv[i], "-h") == 0 || std::strcmp(argv[i], "--help") == 0) {
            std::puts("usage: parse_floor [-q] FILE...");
            return 0;
        } else files.push_back(argv[i]);
    }
    if (files.empty()) {
        std::fputs("usage: parse_floor [-q] FILE...\n", stderr);
        return 2;
    }
    const auto start = Clock::now();
    simdjson::dom::parser parser;
    Visit visit;
    double read_ms = 0, parse_ms = 0, visit_ms = 0;  // wall
    double read_cpu = 0, parse_cpu = 0, visit_cpu = 0;  // CPU
    std::uint64_t bytes = 0;
    for (const char* f : files) {
        auto t0 = Clock::now();
        double c0 = cpu_ms();
        simdjson::padded_string text;
        if (auto err = simdjson::padded_string::load(f).get(text)) {
            std::fprintf(stderr, "parse_floor: %s: %s\n", f, simdjson::error_message(err));
            return 2;
        }
        bytes += text.size();
        read_ms += ms_since(t0);
        read_cpu += cpu_ms() - c0;
        t0 = Clock::now();
        c0 = cpu_ms();
        simdjson::dom::element doc;
        if (auto err = parser.parse(text).get(doc)) {
            std::fprintf(stderr, "parse_floor: %s: %s\n", f, simdjson::error_message(err));
            return 2;
        }
        parse_ms += ms_since(t0);
        parse_cpu += cpu_ms() - c0;
        t0 = Clock::now();
        c0 = cpu_ms();
        visit(doc);
        visit_ms += ms_since(t0);
        visit_cpu += cpu_ms() - c0;
    }
    const double total = ms_since(start);
    if (!quiet) {
        std::fprintf(stderr, "parse_floor: read %.1f ms (cpu %.1f ms)\n", read_ms, read_cpu);
        std::fprintf(stderr, "parse_floor: parse %.1f ms (cpu %.1f ms)\n", parse_ms, parse_cpu);
        std::fprintf(stderr, "parse_floor: visit %.1f ms (cpu %.1f ms)\n", visit_ms, visit_cpu);
        std::fprintf(stderr, "parse_floor: total %.1f ms (cpu %.1f ms; %s)\n", total, cpu_ms(),
                     simdjson::get_active_implementation()->name().c_str());
    }
    std::printf("parse_floor files=%zu bytes=%llu values=%llu numbers=%llu strings=%llu string_bytes=%llu "
                "sum=%.17g read_ms=%.1f parse_ms=%.1f visit_ms=%.1f total_ms=%.1f "
                "read_cpu_ms=%.1f parse_cpu_ms=%.1f visit_cpu_ms=%.1f cpu_ms=%.1f\n",
                files.size(), (unsigned long long)bytes, (unsigned long long)visit.values,
                (unsigned long long)visit.numbers, (unsigned long long)visit.strings,
                (unsigned long long)visit.string_bytes, visit.sum, read_ms, parse_ms, visit_ms, total,
                read_cpu, parse_cpu, visit_cpu, cpu_ms());
    return 0;
}
