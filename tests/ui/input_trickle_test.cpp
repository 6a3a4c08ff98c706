// ui/input_trickle.h: keyboard events handed to ImGui a frame at a time. A model of what ImGui 1.86 does
// with them (a key counts as pressed in a frame when it is down at the frame's start and was not at the
// previous one's; characters are inserted at the caret) replays what Playwright sends when the Search tab's
// check types over a values list, all between two frames: End, Backspaces, the text, Enter.
#include "ui/input_trickle.h"

#include <catch2/catch.hpp>

#include <array>
#include <string>

using namespace astrolabe::ui;

namespace {

constexpr int kEnd = 269, kBackspace = 259, kEnter = 257, kSpace = 32; // GLFW's key codes

// The keys ImGui's key map holds among those used here (Space is ImGuiKey_Space; digits and ',' are not).
bool acts(int key) {
    return key == kEnd || key == kBackspace || key == kEnter || key == kSpace;
}

// A single-line text field as ImGui 1.86 edits it.
struct Field {
    std::string text;
    size_t caret = 0;
    bool entered = false;
    std::array<bool, 512> down{};

    void frame(const std::vector<InputEvent>& events) {
        const std::array<bool, 512> was = down;
        std::string typed;
        for (const InputEvent& e : events) {
            if (e.kind == InputEvent::Kind::Char)
                typed += char(e.ch);
            else if (e.action != InputTrickle::kRepeat)
                down[size_t(e.key)] = e.action == InputTrickle::kPress;
        }
        text.insert(caret, typed);
        caret += typed.size();
        auto pressed = [&](int k) { return down[size_t(k)] && !was[size_t(k)]; };
        if (pressed(kEnd)) caret = text.size();
        if (pressed(kBackspace) && caret > 0) text.erase(--caret, 1);
        if (pressed(kEnter)) entered = true;
    }
};

void press(InputTrickle& q, int key) {
    q.push({InputEvent::Kind::Key, key, 0, InputTrickle::kPress, 0, 0});
    q.push({InputEvent::Kind::Key, key, 0, InputTrickle::kRelease, 0, 0});
}

// Playwright's keyboard.type: per character its key down, the character, its key up.
void type(InputTrickle& q, const std::string& s) {
    for (char c : s) {
        const int key = c >= 'a' && c <= 'z' ? c - 32 : c;
        q.push({InputEvent::Kind::Key, key, 0, InputTrickle::kPress, 0, 0});
        q.push({InputEvent::Kind::Char, 0, 0, 0, 0, unsigned(c)});
        q.push({InputEvent::Kind::Key, key, 0, InputTrickle::kRelease, 0, 0});
    }
}

// "1, 2, 4, 8, 16" with the caret where a click 60 px into the field puts it (before "8"), then End, 20
// Backspaces, "1, 2," and Enter, all queued before the next frame.
InputTrickle typed_over() {
    InputTrickle q;
    press(q, kEnd);
    for (int i = 0; i < 20; ++i)
        press(q, kBackspace);
    type(q, "1, 2,");
    press(q, kEnter);
    return q;
}

Field clicked_field() {
    Field f;
    f.text = "1, 2, 4, 8, 16";
    f.caret = 9;
    return f;
}

} // namespace

TEST_CASE("input trickle: every key press is seen and typing keeps its order", "[ui]") {
    SECTION("all at once, as the backend gave them to ImGui before: End and Backspace are lost") {
        InputTrickle q = typed_over();
        std::vector<InputEvent> all;
        while (q.pending())
            for (const auto& e : q.take_frame([](int) { return false; })) // no key holds anything back
                all.push_back(e);
        Field f = clicked_field();
        f.frame(all);
        CHECK(f.text == "1, 2, 4, 1, 2,8, 16"); // inserted at the click, nothing deleted
        CHECK_FALSE(f.entered);
    }
    SECTION("a frame at a time: the field holds exactly what was typed") {
        InputTrickle q = typed_over();
        Field f = clicked_field();
        int frames = 0;
        while (q.pending()) {
            f.frame(q.take_frame(acts));
            ++frames;
        }
        CHECK(f.text == "1, 2,");
        CHECK(f.entered);
        // End: 2 frames (down, up), each Backspace 2 (its release and the next press can share a frame, so
        // 21 presses of acting keys take 22 frames), then per character: digits and ',' flow with their keys
        // in one frame, a space's key (Space acts) holds its character back a frame.
        CHECK(frames < 60);
        CHECK(frames > 22);
    }
    SECTION("a character typed before a Backspace is deleted by it, one typed after is kept") {
        InputTrickle q;
        type(q, "ab");
        press(q, kBackspace);
        type(q, "c");
        Field f;
        while (q.pending())
            f.frame(q.take_frame(acts));
        CHECK(f.text == "ac");
    }
}
