import { mount } from 'svelte';
import App from './ui/app.svelte';

mount(App, { target: document.getElementById('app')! });
