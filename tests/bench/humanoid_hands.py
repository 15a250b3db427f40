#!/usr/bin/env python3
"""humanoid_hands.py IN.urdf OUT.urdf - the sample humanoid (robots/humanoid.urdf) with a
five-fingered hand on each of left_hand and right_hand: a thumb of five revolute joints and
four fingers of four, 20 g phalanges 25 mm long, and a fixed massless frame at each tip
(left_f0_tip ... right_f4_tip) for 3d contacts. 80 DoF on a free-flyer: the big tree of
docs/benchmarks.md#compile-time and of seed 001's humanoid-with-hands sets
(--contact left_sole:6d --contact right_sole:6d --contact left_f0_tip:3d ...)."""
import sys


def finger(side, f, out):
    prev = f"{side}_hand"
    for k in range(5 if f == 0 else 4):
        link = f"{side}_f{f}_{k}"
        xyz = f"0.03 {-0.04 + 0.02 * f:.3f} 0" if k == 0 else "0.025 0 0"
        axis = "0 0 1" if k == 0 else "0 1 0"
        out.append(f"""  <link name="{link}">
    <inertial><origin xyz="0.012 0 0"/><mass value="0.02"/>
      <inertia ixx="2e-6" ixy="0" ixz="0" iyy="4e-6" iyz="0" izz="4e-6"/></inertial>
  </link>
  <joint name="{link}_joint" type="revolute">
    <parent link="{prev}"/><child link="{link}"/>
    <origin xyz="{xyz}" rpy="0 0 0"/><axis xyz="{axis}"/>
    <limit lower="-0.2" upper="1.5" effort="2" velocity="5"/>
  </joint>""")
        prev = link
    out.append(f"""  <link name="{side}_f{f}_tip"/>
  <joint name="{side}_f{f}_tip_joint" type="fixed">
    <parent link="{prev}"/><child link="{side}_f{f}_tip"/><origin xyz="0.022 0 0"/>
  </joint>""")


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    text = open(sys.argv[1]).read()
    out = []
    for side in ("left", "right"):
        for f in range(5):
            finger(side, f, out)
    if "</robot>" not in text:
        sys.exit(f"{sys.argv[1]}: no </robot>")
    with open(sys.argv[2], "w") as o:
        o.write(text.replace("</robot>", "\n".join(out) + "\n</robot>"))


if __name__ == "__main__":
    main()
