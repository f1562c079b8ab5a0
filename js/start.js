// Starts the Python worker as early as the page allows. index.html loads this small module
// before the interface (app.js and its modules), so the runtime's download and start-up
// overlap the loading of the rest of the page; app.js takes the same instance from here.

import { Raglab } from "./client.js";

export const raglab = new Raglab();
window.raglab = raglab;
