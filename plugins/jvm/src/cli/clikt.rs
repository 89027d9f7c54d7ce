pub struct KotlinCli;
