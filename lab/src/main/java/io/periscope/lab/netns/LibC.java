package io.periscope.lab.netns;

import com.sun.jna.Library;
import com.sun.jna.Native;

/** The few libc calls the lab needs that Java has no API for. */
interface LibC extends Library {

    LibC INSTANCE = Native.load("c", LibC.class);

    int O_RDONLY = 0;
    int O_CLOEXEC = 0x80000;
    int CLONE_NEWNET = 0x40000000;
    int CLONE_NEWNS = 0x00020000;
    int CLONE_FS = 0x00000200;
    long MS_REC = 0x4000;
    long MS_SLAVE = 0x80000;
    int MNT_DETACH = 2;

    int open(String path, int flags);

    int close(int fd);

    int setns(int fd, int nstype);

    int geteuid();

    int unshare(int flags);

    int mount(String source, String target, String type, long flags, String data);

    int umount2(String target, int flags);
}
