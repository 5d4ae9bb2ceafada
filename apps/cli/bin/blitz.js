#!/usr/bin/env node
// A checked-in launcher, so npm links the `blitz` bin before the first build.
import '../dist/main.js';
