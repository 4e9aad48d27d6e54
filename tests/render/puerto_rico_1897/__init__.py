"""Puerto Rico 1897's images (render/puerto_rico_1897/): the kernel's layouts in its words
and colours."""
