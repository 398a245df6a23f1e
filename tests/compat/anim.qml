// tests/compat/anim.qml: the Qt 6 Quick client of scripts/compat, run by
// Qt's own `qml` tool: a square turning forever, so every frame differs.
import QtQuick
Rectangle {
    width: 320; height: 240; color: "steelblue"
    Rectangle {
        width: 96; height: 96; color: "orange"; anchors.centerIn: parent
        RotationAnimation on rotation {
            from: 0; to: 360; duration: 2000; loops: Animation.Infinite
        }
    }
}
