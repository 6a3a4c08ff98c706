// Keyboard input a frame at a time (input_trickle.h).
#include "ui/input_trickle.h"

#include <algorithm>

namespace astrolabe::ui {

std::vector<InputEvent> InputTrickle::take_frame(const std::function<bool(int)>& acts) {
    std::vector<InputEvent> out;
    std::vector<int> changed; // keys pressed or released this frame (a few at most)
    bool text = false, acting_changed = false;
    while (!queue_.empty()) {
        const InputEvent& e = queue_.front();
        if (e.kind == InputEvent::Kind::Char) {
            if (acting_changed) break; // e.g. Backspace then a character: the character waits a frame
            text = true;
        } else if (e.action != kRepeat) { // a repeat changes no state
            if (std::find(changed.begin(), changed.end(), e.key) != changed.end()) break;
            const bool a = acts(e.key);
            if (a && text) break; // a character then Backspace: Backspace waits a frame
            changed.push_back(e.key);
            acting_changed = acting_changed || a;
        }
        out.push_back(e);
        queue_.pop_front();
    }
    return out;
}

} // namespace astrolabe::ui
