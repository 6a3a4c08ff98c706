// Keyboard input handed to ImGui a frame at a time, so that no key press is lost and typing keeps its order.
//
// ImGui 1.86 (third_party/imgui) reads a key's state once per frame (io.KeysDown, set by the GLFW backend's
// callback as events arrive): a key pressed and released between two frames was never seen down. Playwright
// sends a press as a keydown and a keyup a few milliseconds apart, so End or Backspace was lost whenever no
// frame fell between the two (3 of 8 runs lost at least one of 5 Backspaces). The Search tab's check typed
// over a values list with End + Backspaces: End lost left the caret where the click put it, the Backspaces
// cleared only the text before it, and "1, 2," typed over "1, 2, 4, 8, 16" gave "1, 2, 8, 16" (the flake seen
// after a Cancel, on a loaded machine where frames are long). Characters go through ImGui's own queue and
// were never lost, but could be applied before a Backspace typed ahead of them.
//
// Here every key and character event waits in a queue; each frame takes events in order and stops before
// one that ImGui could not tell apart from an event already taken this frame (as ImGui 1.87 trickles its own
// input queue, except that only keys ImGui acts on hold characters back): a second change of the same key,
// a character after a change of a key ImGui acts on (its key map and the modifiers), or a change of such a
// key after a character. Every press is then down for at least one frame, and characters and editing keys
// arrive in the order typed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <vector>

namespace astrolabe::ui {

struct InputEvent {
    enum class Kind : uint8_t { Key, Char };
    Kind kind = Kind::Key;
    int key = 0, scancode = 0, action = 0, mods = 0; // a key: GLFW's key, scancode, action, modifiers
    unsigned ch = 0;                                 // a character (Unicode)
};

class InputTrickle {
public:
    static constexpr int kRelease = 0, kPress = 1, kRepeat = 2; // GLFW's actions
    void push(const InputEvent& e) { queue_.push_back(e); }
    // The events to hand to ImGui before this frame, in order (see above). `acts(key)`: whether ImGui reads
    // the key's state (a key of io.KeyMap, or a modifier).
    std::vector<InputEvent> take_frame(const std::function<bool(int)>& acts);
    // Events still waiting (for the browser tests: typing is over once none is).
    size_t pending() const { return queue_.size(); }

private:
    std::deque<InputEvent> queue_;
};

} // namespace astrolabe::ui
