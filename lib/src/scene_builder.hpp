// Builds and validates a Scene from the pieces the SAX handler delivers.
#pragma once

#include "collide/scene.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <unordered_map>

namespace collide::detail {

/// An input error at a JSON pointer; read_scene adds the file and line:column.
struct Fail {
    std::string path;
    std::string message;
};

class SceneBuilder {
public:
    explicit SceneBuilder(const std::string& file);

    /// A top-level key's whole value (everything but the elements of streamed arrays).
    void top_level(const std::string& key, const nlohmann::json& v, const std::string& path);
    /// A top-level key whose value is an array that will be streamed element by element.
    void begin_array(const std::string& key);
    /// One element of a streamed top-level array.
    void element(const std::string& key, std::size_t index, const nlohmann::json& v, const std::string& path);
    /// Cross-checks (ids, references, y-axis dependent forms) and the scene.
    Scene finish();

    /// Keys whose array values are streamed element by element.
    static bool streamed_key(const std::string& key);

private:
    void shape(std::size_t index, const nlohmann::json& v, const std::string& path);
    void grid(std::size_t index, const nlohmann::json& v, const std::string& path);
    void move(std::size_t index, const nlohmann::json& v, const std::string& path);
    void rule(const nlohmann::json& v, const std::string& path);
    void settings(const nlohmann::json& v, const std::string& path);

    // A rect in left/top/right/bottom form waits for settings.y_axis, which may come later.
    struct PendingRect {
        std::size_t shape;
        double left, top, right, bottom;
        std::string path;
    };
    // A move names its grid by id; grids may come later.
    struct PendingMove {
        std::string grid_id;
        std::string path;
    };

    Scene scene_;
    std::vector<std::string> shape_paths_;
    std::vector<std::string> grid_paths_;
    std::vector<PendingRect> rects_;
    std::vector<PendingMove> move_grids_;
    std::unordered_map<std::string, std::string> move_ids_;  // id -> path
    std::unordered_map<std::string, std::string> rule_names_;
};

}  // namespace collide::detail
